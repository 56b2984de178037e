// Two C library functions, replaced in the routing module only (issue 21: its size), because the
// C library's own bring far more than the routing module needs:
//
//  * strtod: musl's is exact through long double arithmetic, which wasm32 does in software
//    (__multf3, __divtf3, fmodl, scalbnl: about 18 KB with strtod itself). Here the digits are
//    handed to JavaScript's Number(), which is exact too (ECMA-262 rounds to nearest, as strtod
//    does), through the import js/router-native.js provides. The callers pass only what their
//    grammar accepted: the condition scanner a decimal literal, nlohmann's lexer a JSON number.
//    Anything else (hex floats, "inf", "nan", which neither grammar has) converts nothing.
//  * snprintf: the only callers are nlohmann's escapes ("\\u%04x", "<U+%.4X>", "%.2hhX"); a
//    formatter for integers in hex or decimal with a width, zero padding and a precision covers
//    them without printf_core (about 6 KB). Any other conversion writes nothing.
//
// The full module and the native build keep the C library's: the same answers (tests/vectors run
// on every module).
#include <cctype>
#include <cstdarg>
#include <cstddef>
#include <cstdint>

extern "C" {

// Number(text) in JavaScript, for the `length` bytes at `text` (js/router-native.js).
__attribute__((import_module("env"), import_name("hg_js_number"))) double hg_js_number(const char* text, std::size_t length);

double strtod(const char* text, char** end) {
  const char* p = text;
  while (std::isspace(static_cast<unsigned char>(*p))) ++p;
  const char* start = p;
  if (*p == '+' || *p == '-') ++p;
  const char* digits = p;
  while (std::isdigit(static_cast<unsigned char>(*p))) ++p;
  if (*p == '.') {
    ++p;
    while (std::isdigit(static_cast<unsigned char>(*p))) ++p;
  }
  if (p == digits || (p == digits + 1 && *digits == '.')) {  // no digit at all: no conversion
    if (end != nullptr) *end = const_cast<char*>(text);
    return 0;
  }
  if (*p == 'e' || *p == 'E') {
    const char* exponent = p + 1;
    if (*exponent == '+' || *exponent == '-') ++exponent;
    if (std::isdigit(static_cast<unsigned char>(*exponent))) {
      p = exponent;
      while (std::isdigit(static_cast<unsigned char>(*p))) ++p;
    }
  }
  if (end != nullptr) *end = const_cast<char*>(p);
  return hg_js_number(start, static_cast<std::size_t>(p - start));
}

// musl defines these beside strtod, so libc++'s references (std::stof, std::stold, which nothing
// here calls) would link its object again: they read through strtod (a float read through a double
// can round twice; neither is used by the routing module's code).
float strtof(const char* text, char** end) { return static_cast<float>(strtod(text, end)); }
long double strtold(const char* text, char** end) { return strtod(text, end); }

int vsnprintf(char* out, std::size_t size, const char* format, va_list args) {
  std::size_t n = 0;
  auto put = [&](char c) {
    if (n + 1 < size) out[n] = c;
    ++n;
  };
  for (const char* f = format; *f != '\0'; ++f) {
    if (*f != '%') {
      put(*f);
      continue;
    }
    ++f;
    if (*f == '%') {
      put('%');
      continue;
    }
    bool zero = false;
    for (; *f == '0' || *f == '-' || *f == '+' || *f == ' ' || *f == '#'; ++f) zero = zero || *f == '0';
    int width = 0;
    while (std::isdigit(static_cast<unsigned char>(*f))) width = width * 10 + (*f++ - '0');
    int precision = -1;
    if (*f == '.') {
      precision = 0;
      ++f;
      while (std::isdigit(static_cast<unsigned char>(*f))) precision = precision * 10 + (*f++ - '0');
    }
    int longs = 0;
    int shorts = 0;
    for (; *f == 'h' || *f == 'l' || *f == 'z' || *f == 'j' || *f == 't'; ++f) {
      if (*f == 'h') ++shorts;
      else ++longs;
    }
    char conversion = *f;
    if (conversion == '\0') break;
    unsigned base = conversion == 'x' || conversion == 'X' ? 16 : 10;
    if (conversion != 'x' && conversion != 'X' && conversion != 'u' && conversion != 'd' && conversion != 'i') continue;
    bool negative = false;
    std::uint64_t value;
    if (conversion == 'd' || conversion == 'i') {
      std::int64_t v = longs > 0 ? va_arg(args, long long) : va_arg(args, int);
      if (shorts == 1) v = static_cast<short>(v);
      if (shorts >= 2) v = static_cast<signed char>(v);
      negative = v < 0;
      value = negative ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    } else {
      value = longs > 0 ? va_arg(args, unsigned long long) : va_arg(args, unsigned);
      if (shorts == 1) value = static_cast<unsigned short>(value);
      if (shorts >= 2) value = static_cast<unsigned char>(value);
    }
    const char* alphabet = conversion == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    char digits[24];
    int count = 0;
    do {
      digits[count++] = alphabet[value % base];
      value /= base;
    } while (value != 0);
    int shown = count < precision ? precision : count;
    int pad = width - shown - (negative ? 1 : 0);
    if (!zero || precision >= 0) {
      for (; pad > 0; --pad) put(' ');
    }
    if (negative) put('-');
    for (; pad > 0; --pad) put('0');
    for (int i = count; i < shown; ++i) put('0');
    while (count > 0) put(digits[--count]);
  }
  if (size > 0) out[n < size ? n : size - 1] = '\0';
  return static_cast<int>(n);
}

int snprintf(char* out, std::size_t size, const char* format, ...) {
  va_list args;
  va_start(args, format);
  int n = vsnprintf(out, size, format, args);
  va_end(args);
  return n;
}

}  // extern "C"
