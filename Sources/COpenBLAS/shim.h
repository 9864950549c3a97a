// Debian's libopenblas-dev: pkg-config `openblas` adds -I/usr/include/x86_64-linux-gnu/openblas-pthread/,
// whose cblas.h also declares openblas_set_num_threads and openblas_get_corename.
#include <cblas.h>
