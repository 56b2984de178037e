// JSON text to a value in time linear in its size. nlohmann's own parser inserts each member of an
// ordered_json object with a search of the members before it, so an object of n members took
// n²/2 key comparisons: 40,000 members (half a megabyte of text: a tool call's arguments, a
// session's variables, a definition) kept the WebAssembly module busy for 25 seconds. This
// parser reads the text itself (json_parse.cpp) and builds the same value, members in
// their first place with their last value as nlohmann keeps duplicates, finding a key among
// many members through an index.
#pragma once

#include <string>
#include <string_view>

#include "core/json_value.h"

namespace handoff::core {

struct ParsedJson {
  json::Value value;  // discarded when the text is not JSON
  bool too_deep = false;         // some array or object opened with max_depth containers open
};

// The value of `text` (RFC 8259, as nlohmann reads it). With `max_depth` > 0, `too_deep` says
// whether a container opened inside max_depth others (the value is read in full either way).
ParsedJson parse_json(std::string_view text, int max_depth = 0);

// `value` as JSON text, the text nlohmann's dump(-1, ' ', false, error_handler_t::replace) writes
// (compact; strings as UTF-8 with ", \ and control characters escaped, each ill-formed UTF-8
// sequence as U+FFFD; doubles in nlohmann's shortest round-trip digits, NaN and infinities as
// null), with a writer of its own: nlohmann's serializer was about 6 KB of the WebAssembly module.
std::string dump_json(const json::Value& value);
void append_json(std::string& out, const json::Value& value);

}  // namespace handoff::core
