"""The part of the SARIF 2.1.0 JSON schema that interop-tidy-ci's output
uses, written for these tests from the OASIS standard "Static Analysis
Results Interchange Format (SARIF) Version 2.1.0" (the official schema file
cannot be fetched on the build machines). Each constraint names the section
of the standard it comes from. Beyond the official schema it also requires
what GitHub code scanning needs and what the issue asks for (a driver
version, rules with a short description, locations, partial fingerprints):
those are marked "(gate)". A rule's helpUri is optional (§3.49.12), but
when present it is an absolute URI.

Section numbers are those of the standard's text (e.g. §3.27.17 is the
result object's partialFingerprints property). Only required properties,
types and enumerations are checked; properties
the schema leaves open stay open (additionalProperties is not restricted,
as in the official schema's "properties" bags).
"""

NON_EMPTY = {"type": "string", "minLength": 1}
URI = {"type": "string", "format": "uri-reference", "minLength": 1}

SCHEMA = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "description": "§3.13 sarifLog object",
    "type": "object",
    "required": ["version", "runs"],  # §3.13.2, §3.13.4
    "properties": {
        "$schema": URI,  # §3.13.3
        "version": {"const": "2.1.0"},  # §3.13.2: SHALL be "2.1.0"
        "runs": {"type": "array", "minItems": 1,  # §3.13.4 ((gate): one run)
                 "items": {"$ref": "#/definitions/run"}},
    },
    "definitions": {
        "run": {
            "description": "§3.14 run object",
            "type": "object",
            "required": ["tool", "results"],  # §3.14.6; results (gate)
            "properties": {
                "tool": {"$ref": "#/definitions/tool"},  # §3.14.6
                "results": {"type": "array",  # §3.14.23
                            "items": {"$ref": "#/definitions/result"}},
                "invocations": {"type": "array",  # §3.14.11
                                "items": {"$ref": "#/definitions/invocation"}},
                "originalUriBaseIds": {  # §3.14.14: a map to artifactLocations
                    "type": "object",
                    "additionalProperties": {"$ref": "#/definitions/artifactLocation"}},
                "columnKind": {"enum": ["utf16CodeUnits", "unicodeCodePoints"]},  # §3.14, columnKind
            },
        },
        "tool": {
            "description": "§3.18 tool object",
            "type": "object",
            "required": ["driver"],  # §3.18.2
            "properties": {"driver": {"$ref": "#/definitions/toolComponent"}},
        },
        "toolComponent": {
            "description": "§3.19 toolComponent object",
            "type": "object",
            "required": ["name", "version", "rules"],  # §3.19.8; version, rules (gate)
            "properties": {
                "name": NON_EMPTY,  # §3.19.8
                "version": NON_EMPTY,  # §3.19.13
                "semanticVersion": {"type": "string",  # §3.19.14
                                    "pattern": r"^\d+\.\d+\.\d+"},
                "informationUri": URI,  # §3.19.17
                "rules": {"type": "array",  # §3.19.23
                          "items": {"$ref": "#/definitions/reportingDescriptor"}},
            },
        },
        "reportingDescriptor": {
            "description": "§3.49 reportingDescriptor object",
            "type": "object",
            "required": ["id", "shortDescription"],  # §3.49.3; shortDescription (gate)
            "properties": {
                "id": NON_EMPTY,  # §3.49.3
                "shortDescription": {"$ref": "#/definitions/multiformatMessageString"},  # §3.49.9
                "fullDescription": {"$ref": "#/definitions/multiformatMessageString"},  # §3.49.10
                "helpUri": {"type": "string", "format": "uri",  # §3.49.12: absolute URI
                            "pattern": "^[a-zA-Z][a-zA-Z0-9+.-]*:"},
                "help": {"$ref": "#/definitions/multiformatMessageString"},  # §3.49.13
                "defaultConfiguration": {  # §3.49, §3.50 reportingConfiguration
                    "type": "object",
                    "properties": {"level": {"$ref": "#/definitions/level"}}},
            },
        },
        "multiformatMessageString": {
            "description": "§3.12 multiformatMessageString object",
            "type": "object",
            "required": ["text"],  # §3.12.3
            "properties": {"text": {"type": "string"}, "markdown": {"type": "string"}},
        },
        "message": {
            "description": "§3.11 message object: text or id (§3.11.2); (gate): text",
            "type": "object",
            "required": ["text"],  # §3.11.8
            "properties": {"text": NON_EMPTY},
        },
        "level": {"enum": ["none", "note", "warning", "error"]},  # §3.27.10
        "result": {
            "description": "§3.27 result object",
            "type": "object",
            # §3.27.11 message; ruleId, level, locations, fingerprints (gate)
            "required": ["message", "ruleId", "level", "locations", "partialFingerprints"],
            "properties": {
                "ruleId": NON_EMPTY,  # §3.27.5
                "ruleIndex": {"type": "integer", "minimum": -1},  # §3.27.6
                "level": {"$ref": "#/definitions/level"},  # §3.27.10
                "message": {"$ref": "#/definitions/message"},  # §3.27.11
                "locations": {"type": "array", "minItems": 1,  # §3.27.12
                              "items": {"$ref": "#/definitions/location"}},
                "partialFingerprints": {  # §3.27.17: string values
                    "type": "object", "minProperties": 1,
                    "additionalProperties": NON_EMPTY},
                "relatedLocations": {"type": "array",  # §3.27.22
                                     "items": {"$ref": "#/definitions/relatedLocation"}},
            },
        },
        "location": {
            "description": "§3.28 location object",
            "type": "object",
            "required": ["physicalLocation"],  # (gate): §3.28.3 is optional
            "properties": {
                "id": {"type": "integer", "minimum": -1},  # §3.28.2
                "physicalLocation": {"$ref": "#/definitions/physicalLocation"},
                "message": {"$ref": "#/definitions/message"},  # §3.28.5
            },
        },
        "relatedLocation": {
            "description": "§3.27.22 a related location: a note, with its message",
            "allOf": [{"$ref": "#/definitions/location"}],
            "required": ["id", "message"],  # §3.28.2 id unique in the result
        },
        "physicalLocation": {
            "description": "§3.29 physicalLocation object",
            "type": "object",
            # §3.29.2: at least one of address, artifactLocation; (gate): both
            # an artifactLocation and a region
            "required": ["artifactLocation", "region"],
            "properties": {
                "artifactLocation": {"$ref": "#/definitions/artifactLocation"},  # §3.29.3
                "region": {"$ref": "#/definitions/region"},  # §3.29.4
            },
        },
        "artifactLocation": {
            "description": "§3.4 artifactLocation object",
            "type": "object",
            "anyOf": [{"required": ["uri"]}, {"required": ["index"]}],  # §3.4.2
            "properties": {
                "uri": URI,  # §3.4.3
                "uriBaseId": NON_EMPTY,  # §3.4.4
                "index": {"type": "integer", "minimum": -1},  # §3.4.5
            },
        },
        "region": {
            "description": "§3.30 region object",
            "type": "object",
            "required": ["startLine"],  # (gate): a text region by line/column
            "properties": {
                "startLine": {"type": "integer", "minimum": 1},  # §3.30.5
                "startColumn": {"type": "integer", "minimum": 1},  # §3.30.6
                "endLine": {"type": "integer", "minimum": 1},  # §3.30.7
                "endColumn": {"type": "integer", "minimum": 1},  # §3.30.8
            },
        },
        "invocation": {
            "description": "§3.20 invocation object",
            "type": "object",
            "required": ["executionSuccessful"],  # §3.20.14
            "properties": {
                "executionSuccessful": {"type": "boolean"},
                "toolExecutionNotifications": {  # §3.20.21, §3.58 notification
                    "type": "array",
                    "items": {"type": "object", "required": ["message"],  # §3.58
                              "properties": {
                                  "message": {"$ref": "#/definitions/message"},
                                  "level": {"$ref": "#/definitions/level"},
                                  "locations": {"type": "array", "items": {
                                      "$ref": "#/definitions/location"}}}}},
            },
        },
    },
}
