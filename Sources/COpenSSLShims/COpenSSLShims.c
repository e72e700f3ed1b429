// The shims are static inline functions in the header; this file gives SwiftPM a source to compile.
#include "COpenSSLShims.h"
