// One real finding for the guard tests: a run that loads the checks reports
// it, a run that refuses must not pass.
#include <dlpack/dlpack.h>

float first(const DLTensor *t) { return static_cast<float *>(t->data)[0]; }
