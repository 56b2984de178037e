// The full module's one addition to wasm/router_libc.cpp (which it links too, issue 21): embind,
// built without RTTI, names a type by its address for its error messages (bind.cpp:
// sprintf(str, "%p", type)), which the compiler turns into siprintf. musl's siprintf would bring its
// own vsnprintf beside router_libc.cpp's (a duplicate definition) and printf_core with it.
#include <cstdarg>
#include <cstddef>
#include <cstdint>

extern "C" {

int vsnprintf(char* out, std::size_t size, const char* format, va_list args);

int siprintf(char* out, const char* format, ...) {
  va_list args;
  va_start(args, format);
  int n = 0;
  if (format[0] == '%' && format[1] == 'p' && format[2] == '\0') {
    auto value = reinterpret_cast<std::uintptr_t>(va_arg(args, void*));
    char digits[2 * sizeof value];
    int count = 0;
    do {
      digits[count++] = "0123456789abcdef"[value % 16];
      value /= 16;
    } while (value != 0);
    out[n++] = '0';
    out[n++] = 'x';
    while (count > 0) out[n++] = digits[--count];
    out[n] = '\0';
  } else {
    n = vsnprintf(out, SIZE_MAX, format, args);
  }
  va_end(args);
  return n;
}

}  // extern "C"
