// The core's one JSON type: nlohmann::ordered_json, for machine contexts, swarm sessions,
// definitions, exported DAGs and every record the WebAssembly modules answer with, natively and in
// both modules. Ordered, so that documents keep their members in the order they were written.
//
// The core never throws (-fno-exceptions, JSON_NOEXCEPTION): where nlohmann would throw it calls
// abort(), which kills the WebAssembly instance and every graph on the page with it. So, on values
// that come from users:
//  * read text only with parse_json() below (never basic_json::parse, whose member insertion is
//    quadratic), and write it only with dump_json() (error_handler_t::replace: ill-formed UTF-8 is
//    written as U+FFFD instead of throwing);
//  * never at(), get<T>(), get_ref<T>(), value() or an operator[] on a value whose type was not
//    checked first (is_string(), is_object()…): each throws on the wrong type. Implicit
//    conversions are off (JSON_USE_IMPLICIT_CONVERSIONS=0) so that none hides in an assignment;
//  * never the const operator[](key) (undefined behaviour for a missing key): use member() below,
//    or find() and contains(), which answer for any value;
//  * operator[](key), push_back() and erase() only on a value known to be an object or array
//    (null becomes one), items() and iterator key() only on objects.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace handoff::json {

using Value = nlohmann::ordered_json;

// The member `key` of `object`, or null when it has none or is not an object: what nlohmann's
// const operator[] answers for a present key, without its undefined behaviour for a missing one.
const Value& member(const Value& object, std::string_view key);

}  // namespace handoff::json

namespace handoff::core {

struct ParsedJson {
  json::Value value;      // discarded when the text is not JSON
  bool too_deep = false;  // some array or object opened with max_depth containers open
};

// The value of `text` as nlohmann reads JSON (RFC 8259 in UTF-8 after an optional byte order mark;
// a repeated key keeps its first place and gets its last value), in time linear in the size of
// the text (see json.cpp). With `max_depth` > 0, `too_deep` says whether a container opened inside
// max_depth others (the value is read in full either way).
ParsedJson parse_json(std::string_view text, int max_depth = 0);

// `value` as compact JSON text; each ill-formed UTF-8 sequence in a string becomes U+FFFD.
std::string dump_json(const json::Value& value);

}  // namespace handoff::core
