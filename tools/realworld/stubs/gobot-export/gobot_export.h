/* Self-written stand-in for the header CMake's GenerateExportHeader makes
   for gobot (a static/visibility build): the export macros expand to nothing. */
#pragma once
#define GOBOT_EXPORT
#define GOBOT_NO_EXPORT
#define GOBOT_DEPRECATED
#define GOBOT_DEPRECATED_EXPORT
#define GOBOT_DEPRECATED_NO_EXPORT
