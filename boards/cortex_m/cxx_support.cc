// The few C++ ABI symbols freestanding code can still reference with
// -fno-exceptions -fno-rtti and no C++ library:
// - __dso_handle / __aeabi_atexit / __cxa_atexit: registration of static
//   destructors. Firmware never returns from main normally, so destructors
//   are never run and registration just succeeds.
// - __cxa_pure_virtual, operator delete (referenced by virtual destructors),
//   abort: must never run; they trap (UDF) so the fault reporter prints the
//   HardFault line with the PC of the culprit.
#include <stddef.h>

extern "C" {
void* __dso_handle = nullptr;

int __aeabi_atexit(void* object, void (*destructor)(void*), void* dso) { return 0; }
int __cxa_atexit(void (*destructor)(void*), void* object, void* dso) { return 0; }

void __cxa_pure_virtual(void) { __builtin_trap(); }
void abort(void) { __builtin_trap(); }
}

void operator delete(void* p) noexcept { __builtin_trap(); }
void operator delete(void* p, size_t size) noexcept { __builtin_trap(); }
