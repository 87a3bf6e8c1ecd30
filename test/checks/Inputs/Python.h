/* Mock Python.h: the CPython capsule and error-indicator API the interop
 * checks model, declaration-only. */
#ifndef Py_PYTHON_H
#define Py_PYTHON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef ptrdiff_t Py_ssize_t;
typedef struct _object {
  Py_ssize_t ob_refcnt;
  void *ob_type;
} PyObject;

typedef void (*PyCapsule_Destructor)(PyObject *);

PyObject *PyCapsule_New(void *pointer, const char *name,
                        PyCapsule_Destructor destructor);
void *PyCapsule_GetPointer(PyObject *capsule, const char *name);
const char *PyCapsule_GetName(PyObject *capsule);
PyCapsule_Destructor PyCapsule_GetDestructor(PyObject *capsule);
void *PyCapsule_GetContext(PyObject *capsule);
int PyCapsule_IsValid(PyObject *capsule, const char *name);
int PyCapsule_SetPointer(PyObject *capsule, void *pointer);
int PyCapsule_SetName(PyObject *capsule, const char *name);
int PyCapsule_SetDestructor(PyObject *capsule, PyCapsule_Destructor destructor);
int PyCapsule_SetContext(PyObject *capsule, void *context);

PyObject *PyErr_Occurred(void);
void PyErr_Clear(void);
/* The memory allocators (Include/pymem.h). */
void *PyMem_Malloc(size_t size);
void PyMem_Free(void *ptr);
void PyErr_Fetch(PyObject **type, PyObject **value, PyObject **traceback);
void PyErr_Restore(PyObject *type, PyObject *value, PyObject *traceback);
PyObject *PyErr_GetRaisedException(void);
void PyErr_SetRaisedException(PyObject *exc);
void PyErr_SetString(PyObject *type, const char *message);
void PyErr_WriteUnraisable(PyObject *obj);
PyObject *PyErr_NoMemory(void);
PyObject *PyErr_Format(PyObject *exception, const char *format, ...);

extern PyObject *PyExc_BufferError;
extern PyObject *PyExc_TypeError;
extern PyObject *PyExc_ValueError;
extern PyObject *PyExc_RuntimeError;

PyObject *PyObject_GetAttrString(PyObject *o, const char *name);
PyObject *PyObject_CallMethod(PyObject *o, const char *name,
                              const char *format, ...);
PyObject *PyObject_CallNoArgs(PyObject *callable);
PyObject *PyObject_CallObject(PyObject *callable, PyObject *args);
int PyErr_ExceptionMatches(PyObject *exc);
PyObject *PyUnicode_InternFromString(const char *s);

void Py_IncRef(PyObject *o);
void Py_DecRef(PyObject *o);
#define Py_INCREF(o) Py_IncRef((PyObject *)(o))
#define Py_DECREF(o) Py_DecRef((PyObject *)(o))
#define Py_XDECREF(o)                                                          \
  do {                                                                         \
    if (o)                                                                     \
      Py_DecRef((PyObject *)(o));                                              \
  } while (0)

typedef enum { PyGILState_LOCKED, PyGILState_UNLOCKED } PyGILState_STATE;
PyGILState_STATE PyGILState_Ensure(void);
void PyGILState_Release(PyGILState_STATE state);

int PyArg_ParseTupleAndKeywords(PyObject *args, PyObject *kw,
                                const char *format, char **kwlist, ...);
PyObject *PyTuple_GetItem(PyObject *tuple, long pos);
long PyLong_AsLong(PyObject *o);

extern PyObject _Py_NoneStruct;
#define Py_None (&_Py_NoneStruct)

#ifdef __cplusplus
}
#endif
#endif
