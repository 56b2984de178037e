// A tape value as JSON text, written as JavaScript's JSON.stringify writes the same value
// (numbers in ECMAScript's Number::toString form, members in tape order), for messages that
// show a user what a condition read, such as NoEdgeMatchedError's preview.
#pragma once

#include <cstddef>
#include <string>

#include "condition/value.h"

namespace handoff::condition {

// JavaScript's String(number) for a finite double; "null" for NaN and the infinities, as JSON has.
std::string number_text(double number);

// The JSON text of `value`, cut to `max_chars` code points: a longer text keeps its first
// max_chars - 3 and ends with "...". A container whose members were not marshalled (too deep or
// too large, value.h) shows its size instead: [… 5000 elements], {… 12 members}.
std::string preview_text(ValueRef value, std::size_t max_chars);

}  // namespace handoff::condition
