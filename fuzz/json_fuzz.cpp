// The core's JSON reader (core/json.h's parse_json, which builds its value from nlohmann's SAX
// events in linear time) against nlohmann's own DOM parser on arbitrary bytes: the same texts
// accepted, the same values (number kinds included, members in the same places), the same depth
// flag; and dump_json never aborts, whatever bytes a string holds.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common.h"
#include "core/json.h"
#include "../tests/cpp/same_json.h"

namespace {

using handoff::json::Value;

using handoff::testing::same_json;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  constexpr int kLimit = 6;
  bool too_deep = false;
  auto depth = [&](int level, Value::parse_event_t event, Value&) {
    bool opens = event == Value::parse_event_t::object_start || event == Value::parse_event_t::array_start;
    too_deep = too_deep || (opens && level >= kLimit);
    return true;
  };
  // Quadratic in an object's members, so the fuzzer's inputs (a few KB) are what it can check.
  const Value expected = Value::parse(text, depth, /*allow_exceptions=*/false);

  const handoff::core::ParsedJson parsed = handoff::core::parse_json(text, kLimit);
  FUZZ_CHECK(parsed.value.is_discarded() == expected.is_discarded(), "parse_json accepts what nlohmann accepts");
  if (!expected.is_discarded()) {
    FUZZ_CHECK(same_json(parsed.value, expected), "parse_json reads the value nlohmann reads, number kinds included");
    FUZZ_CHECK(parsed.too_deep == too_deep, "the depth flag as nlohmann's callback sees it");
    FUZZ_CHECK(handoff::core::dump_json(parsed.value) == expected.dump(-1, ' ', false, Value::error_handler_t::replace),
               "the same text");
  }
  (void)handoff::core::dump_json(Value(std::string(text)));  // ill-formed UTF-8 is replaced, never an abort
  return 0;
}
