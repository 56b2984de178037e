// The parser: precedence-driven recursive descent (conditions.md §2) that emits the compiled form
// directly. Recursion follows only what the source nests, and every nesting level is counted
// against kMaxNesting before recursing, so no input can exhaust the stack.
//
// A compile grows the condition's parts (nodes, operands, constants, paths) in scratch vectors
// that every compile on the thread reuses, and copies each part into the condition once, at its
// final size: the wasm allocator is a large share of a compile, and growing each vector by
// doubling allocated several times per part.
#include <algorithm>
#include <numeric>

#include "condition/condition.h"
#include "condition/limits.h"
#include "condition/scanner.h"
#include "condition/unicode.h"

namespace handoff::condition {

class Parser {
 public:
  Parser(std::string_view source, Interner& strings, Condition& out)
      : source_(source), scanner_(source), strings_(strings), out_(out), scratch_(scratch()) {
    scratch_.clear();
  }

  Expected<Condition::Operand, ScanError> parse() {
    if (source_.size() > kMaxSourceBytes) return fail(0, "condition too long");
    if (!advance()) return failed();
    if (current_.kind == TokenKind::End) return fail(0, "empty condition");
    auto root = parse_or();
    if (!root) return root;
    if (current_.kind != TokenKind::End) return fail(current_.start, "unexpected " + quoted_token());
    out_.nodes_.assign(scratch_.nodes.begin(), scratch_.nodes.end());
    out_.children_.assign(scratch_.children.begin(), scratch_.children.end());
    out_.constants_ = scratch_.constants;
    sort_paths();
    return root;
  }

 private:
  using Operand = Condition::Operand;
  using Result = Expected<Operand, ScanError>;

  struct Scratch {
    std::vector<Condition::Node> nodes;
    std::vector<Operand> children;
    std::vector<Operand> items;  // the operands of the `and`/`or` chains being parsed, innermost last
    TapeBuilder constants;
    std::vector<Path> paths;
    std::vector<std::string> path_texts;  // each slot's canonical text, by slot
    std::vector<std::uint32_t> path_order;  // the slots in text order
    Path path;  // the path being parsed; a new one is copied out at its size

    void clear() {
      nodes.clear();
      children.clear();
      items.clear();
      constants.clear();
      paths.clear();
      path_texts.clear();
      path.steps.clear();
    }
  };
  static Scratch& scratch() {
#ifdef __EMSCRIPTEN__
    // A WebAssembly instance runs one thread and never exits, so its scratch is made once and
    // never destroyed: a destructor registered at exit was 0.5 KB of each module (issue 21).
    static Scratch* instance = nullptr;
    if (instance == nullptr) instance = new Scratch;
    return *instance;
#else
    thread_local Scratch instance;
    return instance;
#endif
  }

  static Unexpected<ScanError> fail(std::uint32_t offset, std::string problem) {
    return unexpected(ScanError{offset, std::move(problem)});
  }
  // A fixed message: its string is made here once, not at each of the places that fail so.
  [[gnu::noinline]] static Unexpected<ScanError> fail(std::uint32_t offset, const char* problem) {
    return unexpected(ScanError{offset, problem});
  }

  // Moves to the next token. On a scan error it keeps the error for failed() and answers false:
  // the many callers then pass on one out-of-line copy of it rather than each its own.
  bool advance() {
    auto token = scanner_.next();
    if (!token) {
      scan_error_ = token.error();
      return false;
    }
    current_ = token.value();
    return true;
  }
  [[gnu::noinline]] Unexpected<ScanError> failed() { return unexpected(std::move(scan_error_)); }

  // "expected X, found 'y'" at the current token: one out-of-line copy of the message's assembly
  // for the places that report it.
  [[gnu::noinline]] Unexpected<ScanError> fail_found(const char* expected) const {
    return fail(current_.start, std::string(expected) + ", found " + quoted_token());
  }

  // "'x =='" for a token, "end of condition" at the end; long tokens are shortened.
  std::string quoted_token() const {
    if (current_.kind == TokenKind::End) return "end of condition";
    std::string_view text = source_.substr(current_.start, current_.end - current_.start);
    if (text.size() > 32) {
      std::size_t cut = 32;
      while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
      return "'" + std::string(text.substr(0, cut)) + "…'";
    }
    return "'" + std::string(text) + "'";
  }

  Expected<void, ScanError> enter(std::uint32_t offset) {
    if (++nesting_ > kMaxNesting) return fail(offset, "nested too deeply");
    return {};
  }
  void leave() { --nesting_; }

  Operand add_node(Condition::Node node) {
    scratch_.nodes.push_back(node);
    return {Operand::Source::Node, static_cast<std::uint32_t>(scratch_.nodes.size() - 1)};
  }

  // or := and ("or" and)*      and := not ("and" not)*
  Result parse_or() { return parse_chain(TokenKind::Or, Condition::Op::Or, &Parser::parse_and); }
  Result parse_and() { return parse_chain(TokenKind::And, Condition::Op::And, &Parser::parse_not); }

  Result parse_chain(TokenKind separator, Condition::Op op, Result (Parser::*parse_item)()) {
    auto first = (this->*parse_item)();
    if (!first || current_.kind != separator) return first;
    // This chain's operands go on the shared stack; a chain nested in one of them pushes and
    // pops its own above them before the next operand is pushed.
    std::vector<Operand>& items = scratch_.items;
    const std::size_t base = items.size();
    items.push_back(first.value());
    while (current_.kind == separator) {
      if (!advance()) return failed();
      auto item = (this->*parse_item)();
      if (!item) return item;
      items.push_back(item.value());
    }
    std::vector<Operand>& children = scratch_.children;
    Condition::Node node{op, {}, {}, static_cast<std::uint32_t>(children.size()),
                         static_cast<std::uint32_t>(items.size() - base)};
    children.insert(children.end(), items.begin() + static_cast<std::ptrdiff_t>(base), items.end());
    items.resize(base);
    return add_node(node);
  }

  // not := "not" not | compare
  Result parse_not() {
    if (current_.kind != TokenKind::Not) return parse_compare();
    if (auto r = enter(current_.start); !r) return unexpected(r.error());
    if (!advance()) return failed();
    auto operand = parse_not();
    if (!operand) return operand;
    leave();
    return add_node({Condition::Op::Not, operand.value(), {}});
  }

  static bool is_comparison(TokenKind k) {
    return k == TokenKind::Eq || k == TokenKind::Ne || k == TokenKind::Lt || k == TokenKind::Le ||
           k == TokenKind::Gt || k == TokenKind::Ge || k == TokenKind::In;
  }

  // compare := operand [op operand]
  Result parse_compare() {
    auto lhs = parse_operand();
    if (!lhs) return lhs;
    Condition::Op op;
    switch (current_.kind) {
      case TokenKind::Eq: op = Condition::Op::Eq; break;
      case TokenKind::Ne: op = Condition::Op::Ne; break;
      case TokenKind::Lt: op = Condition::Op::Lt; break;
      case TokenKind::Le: op = Condition::Op::Le; break;
      case TokenKind::Gt: op = Condition::Op::Gt; break;
      case TokenKind::Ge: op = Condition::Op::Ge; break;
      case TokenKind::In: op = Condition::Op::In; break;
      case TokenKind::Not:
        if (!advance()) return failed();
        if (current_.kind != TokenKind::In) return fail(current_.start, "expected 'in' after 'not'");
        op = Condition::Op::NotIn;
        break;
      default:
        return lhs;
    }
    if (!advance()) return failed();
    auto rhs = parse_operand();
    if (!rhs) return rhs;
    if (is_comparison(current_.kind)) return fail(current_.start, "comparisons cannot be chained");
    return add_node({op, lhs.value(), rhs.value()});
  }

  // operand := "(" expr ")" | literal | list | path
  Result parse_operand() {
    switch (current_.kind) {
      case TokenKind::LParen: {
        if (auto r = enter(current_.start); !r) return unexpected(r.error());
        if (!advance()) return failed();
        auto inner = parse_or();
        if (!inner) return inner;
        if (current_.kind != TokenKind::RParen) return fail_found("expected ')'");
        leave();
        if (!advance()) return failed();
        return inner;
      }
      case TokenKind::LBracket: {
        auto index = parse_list();
        if (!index) return unexpected(index.error());
        return Operand{Operand::Source::Constant, index.value()};
      }
      case TokenKind::Name:
        return parse_path();
      default: {
        std::uint32_t cell = 0;
        if (!add_literal(cell)) return fail_found("expected a value");
        if (!advance()) return failed();
        return Operand{Operand::Source::Constant, cell};
      }
    }
  }

  // Appends the current token's value to the constants tape if it is a scalar literal.
  bool add_literal(std::uint32_t& cell) {
    TapeBuilder& tape = scratch_.constants;
    switch (current_.kind) {
      case TokenKind::Number: cell = tape.add_number(current_.number); return true;
      case TokenKind::String: cell = tape.add_string(current_.text, strings_.intern(current_.text)); return true;
      case TokenKind::True: cell = tape.add_bool(true); return true;
      case TokenKind::False: cell = tape.add_bool(false); return true;
      case TokenKind::Null: cell = tape.add_null(); return true;
      default: return false;
    }
  }

  // list := "[" [ item ("," item)* [","] ] "]"     item := literal | list
  Expected<std::uint32_t, ScanError> parse_list() {
    if (auto r = enter(current_.start); !r) return unexpected(r.error());
    if (!advance()) return failed();
    TapeBuilder& tape = scratch_.constants;
    std::uint32_t list = tape.begin_container(Kind::Array);
    std::uint32_t count = 0;
    while (current_.kind != TokenKind::RBracket) {
      if (count == kMaxListItems) return fail(current_.start, "list too long");
      if (current_.kind == TokenKind::LBracket) {
        auto nested = parse_list();
        if (!nested) return nested;
      } else if (current_.kind == TokenKind::Name || current_.kind == TokenKind::LParen) {
        return fail(current_.start, "lists may only contain literals");
      } else {
        std::uint32_t cell = 0;
        if (!add_literal(cell)) return fail_found("expected a value");
        if (!advance()) return failed();
      }
      ++count;
      if (current_.kind == TokenKind::Comma) {
        if (!advance()) return failed();
      } else if (current_.kind != TokenKind::RBracket) {
        return fail_found("expected ']'");
      }
    }
    tape.end_container(list, count);
    leave();
    if (!advance()) return failed();
    return list;
  }

  static bool is_word(TokenKind k) {
    switch (k) {
      case TokenKind::Name: case TokenKind::And: case TokenKind::Or: case TokenKind::Not:
      case TokenKind::In: case TokenKind::True: case TokenKind::False: case TokenKind::Null:
        return true;
      default:
        return false;
    }
  }

  // path := name ( "." name | "[" integer "]" | "[" string "]" )*
  Result parse_path() {
    Path& path = scratch_.path;
    path.steps.clear();
    path.steps.push_back({false, std::string(current_.text), 0});
    if (!advance()) return failed();
    while (current_.kind == TokenKind::Dot || current_.kind == TokenKind::LBracket) {
      if (path.steps.size() == kMaxPathSteps) return fail(current_.start, "path too long");
      bool dot = current_.kind == TokenKind::Dot;
      if (!advance()) return failed();
      if (dot) {
        // After a dot any word is a key, keywords included: `a.in`, `a.true`.
        if (!is_word(current_.kind)) return fail(current_.start, "expected a name after '.'");
        path.steps.push_back({false, std::string(source_.substr(current_.start, current_.end - current_.start)), 0});
      } else {
        PathStep step;
        if (current_.kind == TokenKind::String) {
          step.key = current_.text;
        } else if (current_.kind != TokenKind::Number || !integer_step(step)) {
          return fail(current_.start, "expected an integer or a string in brackets");
        }
        if (!advance()) return failed();
        if (current_.kind != TokenKind::RBracket) return fail_found("expected ']'");
        path.steps.push_back(std::move(step));
      }
      if (!advance()) return failed();
    }
    // Conditions name few paths: a linear search beats a tree, and allocates nothing per lookup.
    std::string text = path.text();
    auto& texts = scratch_.path_texts;
    for (std::uint32_t slot = 0; slot < texts.size(); ++slot) {
      if (texts[slot] == text) return Operand{Operand::Source::Slot, slot};
    }
    auto slot = static_cast<std::uint32_t>(texts.size());
    texts.push_back(std::move(text));
    scratch_.paths.push_back(path);  // a copy's steps are allocated at their count
    return Operand{Operand::Source::Slot, slot};
  }

  // `[007]` → index 7, key "7"; `[-0]` → 0, "0". Fails for fractions and exponents.
  bool integer_step(PathStep& step) const {
    std::string_view text = source_.substr(current_.start, current_.end - current_.start);
    bool negative = !text.empty() && text[0] == '-';
    std::string_view digits = text.substr(negative ? 1 : 0);
    if (digits.empty() || !std::all_of(digits.begin(), digits.end(), unicode::is_digit)) return false;
    std::size_t first = digits.find_first_not_of('0');
    digits = first == std::string_view::npos ? "0" : digits.substr(first);
    negative = negative && digits != "0";
    std::int64_t value = 0;
    for (char c : digits) {
      int digit = c - '0';
      value = value > (INT64_MAX - digit) / 10 ? INT64_MAX : value * 10 + digit;  // saturate, never overflow
    }
    step.is_index = true;
    step.key = (negative ? "-" : "") + std::string(digits);
    step.index = negative ? -value : value;
    return true;
  }

  // Slots were numbered in order of appearance; renumber them in path text order (moving the
  // paths into the condition, at its final size).
  void sort_paths() {
    auto& order = scratch_.path_order;
    const auto count = static_cast<std::uint32_t>(scratch_.path_texts.size());
    const auto& texts = scratch_.path_texts;
    order.resize(count);
    std::iota(order.begin(), order.end(), 0U);
    std::sort(order.begin(), order.end(), [&texts](std::uint32_t a, std::uint32_t b) { return texts[a] < texts[b]; });
    out_.paths_.reserve(count);
    bool in_order = true;
    for (std::uint32_t rank = 0; rank < count; ++rank) {
      in_order = in_order && order[rank] == rank;
      out_.paths_.push_back(std::move(scratch_.paths[order[rank]]));
    }
    if (in_order) return;
    std::vector<std::uint32_t> ids(count);
    for (std::uint32_t rank = 0; rank < count; ++rank) ids[order[rank]] = rank;
    out_.bind_slots(ids);
  }

  std::string_view source_;
  Scanner scanner_;
  Interner& strings_;
  Condition& out_;
  Token current_;
  ScanError scan_error_;
  int nesting_ = 0;
  Scratch& scratch_;
};

template <class Fn>
void Condition::for_each_operand(Fn&& fn) {
  fn(root_);
  for (Node& node : nodes_) {
    fn(node.lhs);
    fn(node.rhs);
  }
  for (Operand& child : children_) fn(child);
}

void Condition::bind_slots(const std::vector<std::uint32_t>& ids) {
  for_each_operand([&](Operand& operand) {
    if (operand.source == Operand::Source::Slot) operand.index = ids[operand.index];
  });
}

Expected<Condition, SyntaxError> Condition::compile(std::string_view source, Interner& strings) {
  Condition condition;
  condition.source_ = source;
  condition.strings_ = &strings;
  Parser parser(source, strings, condition);
  auto root = parser.parse();
  if (!root) {
    auto index = static_cast<std::uint32_t>(unicode::utf16_offset(source, root.error().offset));
    return unexpected(SyntaxError{index, root.error().problem + " at column " + std::to_string(index + 1)});
  }
  condition.root_ = root.value();
  condition.specialize();
  return condition;
}

}  // namespace handoff::condition
