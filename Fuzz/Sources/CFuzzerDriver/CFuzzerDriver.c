// Header-only module: LLVMFuzzerRunDriver is defined by libFuzzer (linked by -sanitize=fuzzer).
#include "CFuzzerDriver.h"
