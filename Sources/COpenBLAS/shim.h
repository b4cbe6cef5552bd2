// OpenBLAS's CBLAS interface (Debian: libopenblas-dev installs it as /usr/include/<triple>/cblas.h).
#include <cblas.h>
