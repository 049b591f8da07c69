#include "tlbf/conformance/rule_cases.hpp"

#include "header_files.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <sstream>
#include <string_view>
#include <utility>

#include "tlbf/conformance/described_cases.hpp"
#include "tlbf/conformance/judge.hpp"
#include "tlbf/conformance/run_with_input.hpp"
#include "tlbf/conformance/readable.hpp"
#include "tlbf/conformance/transcript.hpp"
#include "tlbf/protocol/oracle_session.hpp"
#include "tlbf/protocol/values.hpp"

namespace tlbf::conformance {

// Generated from conformance/corpus/from_bytes at configure time: (file name, lowercase hex).
extern const std::vector<std::pair<std::string_view, std::string_view>> kFromBytesCorpus;
extern const std::string_view kCheckRulesTable;  // docs/check.md's table, compiled in (CMakeLists.txt)

namespace {

using Steps = std::vector<DraftStep>;

// The oracle's response as a pattern that any conforming answer matches.
std::string pattern_of(std::string_view request, const std::string& response) {
  return pattern_for(request, response);
}

DraftStep expect(std::string request, std::string pattern) {
  return {std::move(request), std::move(pattern)};
}

// ---- bytes for items and headers --------------------------------------------

std::string hex_of(const std::vector<std::uint8_t>& bytes) { return protocol::write_bytes(bytes); }

std::vector<std::uint8_t> pattern_item(std::size_t size) {
  std::vector<std::uint8_t> item(size);
  for (std::size_t i = 0; i < size; ++i) item[i] = static_cast<std::uint8_t>((i * 7 + 3) % 251);
  return item;
}

// from_bytes NAME FILE, then everything a loaded filter tells about itself.
Steps load_and_read(const std::string& name, const std::string& hex) {
  return {ask("from_bytes " + name + " " + hex), ask("info " + name), ask("count_ones " + name),
          ask("to_bytes " + name), ask("drop " + name)};
}

Steps concat(std::initializer_list<Steps> parts) {
  Steps out;
  for (const auto& part : parts) out.insert(out.end(), part.begin(), part.end());
  return out;
}

// ---- the cases, by family -------------------------------------------------

void framing(std::vector<Case>& out) {
  out.push_back(case_from_draft("protocol/framing/cr_before_newline_ignored",
                                {expect("hello\r", "ok 1 *"), expect("new cr 8 1\r", "ok"),
                                 expect("info cr\r", "ok 8 1 0"), ask("drop cr")}));
  out.push_back(case_from_draft("protocol/framing/only_one_cr_ignored",
                                {expect("hello\r\r", "err Protocol"), expect("hel\rlo", "err Protocol")}));
  out.push_back(case_from_draft("protocol/framing/empty_line_is_protocol",
                                {expect("", "err Protocol"), expect("\r", "err Protocol")}));
  out.push_back(case_from_draft("protocol/framing/leading_space_refused",
                                {expect(" hello", "err Protocol"), expect("  hello", "err Protocol")}));
  out.push_back(case_from_draft("protocol/framing/trailing_space_refused",
                                {expect("hello ", "err Protocol"), expect("hello \r", "err Protocol")}));
  out.push_back(case_from_draft("protocol/framing/double_space_refused",
                                {expect("new ds  8 1", "err Protocol"), expect("info  ds", "err Protocol")}));
  out.push_back(case_from_draft("protocol/framing/tab_refused",
                                {expect("new\tds 8 1", "err Protocol"), expect("hello\t", "err Protocol")}));
  out.push_back(case_from_draft(
      "protocol/framing/control_byte_refused",
      {expect("hello\x01", "err Protocol"), expect("hello\x7f", "err Protocol"),
       expect(std::string("hello\0", 6), "err Protocol"), expect("new cb\xe9 8 1", "err Protocol")}));
  // Bytes 0x80 to 0xff are not printable ASCII either: a reader that takes
  // them as printable (Latin-1 text) answers Unknown to the word below.
  out.push_back(case_from_draft("protocol/framing/high_bytes_refused",
                                {expect("hell\xe9", "err Protocol"), expect("hello\x80", "err Protocol"),
                                 expect("\xff", "err Protocol")}));
  // An implementation whose line reader stops at 64 KiB (or 1 MiB) fails
  // here, and so does one that cuts items at 1 MiB: the item is 1 MiB and a byte.
  out.push_back(case_from_draft("protocol/framing/long_line_1mib",
                                {ask("fnv1a64 " + hex_of(pattern_item((std::size_t{1} << 20) + 1)))}));
  // A request longer than 16 MiB, so that a reader with a limit at 16 MiB (or
  // any power of two below it) fails here. Cheap to answer (no such filter)
  // once the line has been read and its hex checked. A line at the 64 MiB
  // maximum itself would cost about 0.75 s of processor time in every run,
  // more than the rest of the default check, so it is not one of these cases.
  // Made only when it runs, and moved from there on: making it (4096 fresh
  // pages) cost a third of the setup of every run, even of one case.
  Case longest;
  longest.name = "protocol/framing/line_above_16mib";
  longest.needs = {Capability::Filter};
  longest.make_steps = [] {
    std::string line = "contains absent_long ";  // odd length, so the hex fills the rest exactly
    line.resize((std::size_t{16} << 20) + (std::size_t{64} << 10) - 1, 'a');
    Steps steps;
    steps.push_back(expect(std::move(line), "err NoSuchFilter"));
    return case_from_draft("protocol/framing/line_above_16mib", std::move(steps)).steps;
  };
  out.push_back(std::move(longest));
}

void commands_and_arguments(std::vector<Case>& out) {
  out.push_back(
      case_from_draft("protocol/commands/unknown_word",
                      {expect("frobnicate", "err Unknown"), expect("frobnicate a b c d", "err Unknown"),
                       expect("frobnicate zz!", "err Unknown")}));
  out.push_back(case_from_draft(
      "protocol/commands/uppercase_word_unknown",
      {expect("HELLO", "err Unknown"), expect("Hello", "err Unknown"), expect("INFO x", "err Unknown")}));
  out.push_back(case_from_draft(
      "protocol/arguments/too_many",
      {expect("hello x", "err Protocol"), expect("hello 1", "err Protocol"), ask("new am 8 1"),
       expect("new am 8 1 1", "err Protocol"), expect("info am x", "err Protocol"),
       expect("insert am 00 00", "err Protocol"), ask("drop am")}));
  out.push_back(case_from_draft("protocol/arguments/too_many_hashing",
                                {expect("fnv1a64 61 62", "err Protocol"),
                                 expect("mix64 0000000000000000 0000000000000000", "err Protocol")}));
  out.push_back(case_from_draft(
      "protocol/arguments/too_few",
      {ask("new af 8 1"), expect("new af 8", "err Protocol"), expect("info", "err Protocol"),
       expect("insert af", "err Protocol"), expect("with_rate af 4", "err Protocol"), ask("drop af")}));
}

void bytes_values(std::vector<Case>& out) {
  out.push_back(case_from_draft(
      "protocol/bytes/uppercase_accepted",
      {ask("fnv1a64 DEADBEEF"), ask("fnv1a64 DeadBeef"), ask("positions_for 1000 3 ABCDEF")}));
  out.push_back(
      case_from_draft("protocol/bytes/uppercase_item_is_the_same_item",
                      {ask("new ub 64 3"), ask("insert ub ABCD"), expect("contains ub abcd", "ok true"),
                       ask("positions ub AbCd"), ask("drop ub")}));
  out.push_back(case_from_draft("protocol/bytes/odd_digits_refused",
                                {expect("fnv1a64 abc", "err Protocol"), expect("fnv1a64 0", "err Protocol"),
                                 expect("fnv1a64 636174a", "err Protocol")}));
  out.push_back(
      case_from_draft("protocol/bytes/non_hex_refused",
                      {expect("fnv1a64 zz", "err Protocol"), expect("fnv1a64 0g", "err Protocol"),
                       expect("fnv1a64 00zz", "err Protocol"), expect("fnv1a64 0x00", "err Protocol"),
                       expect("fnv1a64 --", "err Protocol")}));
}

void hash_values(std::vector<Case>& out) {
  out.push_back(
      case_from_draft("protocol/hash/uppercase_refused", {expect("mix64 F5E307190CE4A327", "err Protocol")}));
  out.push_back(case_from_draft(
      "protocol/hash/wrong_length_refused",
      {expect("mix64 1", "err Protocol"), expect("mix64 f5e307190ce4a32", "err Protocol"),
       expect("mix64 0f5e307190ce4a327", "err Protocol"), expect("mix64 -", "err Protocol")}));
  // docs/format.md, section 2: mix64(0) = 0, written with all 16 digits.
  out.push_back(case_from_draft("protocol/hash/leading_zeros_written",
                                {expect("mix64 0000000000000000", "ok 0000000000000000")}));
}

void integer_values(std::vector<Case>& out) {
  out.push_back(case_from_draft("protocol/integers/leading_zeros_accepted",
                                {expect("optimal_k 020 04", "ok 3"), expect("new lz 0008 01", "ok"),
                                 expect("info lz", "ok 8 1 0"), ask("drop lz")}));
  // More digits than u64's 20 that still fit: a reader that limits the length first refuses them.
  const std::string zeros(20, '0');
  out.push_back(case_from_draft("protocol/integers/many_leading_zeros_accepted",
                                {expect("optimal_k " + zeros + "020 " + zeros + "04", "ok 3"),
                                 expect("optimal_k 1 00000" + std::string("18446744073709551615"), "ok 1"),
                                 expect("new mz " + zeros + "00008 " + zeros + "1", "ok"),
                                 expect("info mz", "ok 8 1 0"), ask("drop mz")}));
  // m and n are u64, so values past u32 that make no filter are BadParams
  // (docs/protocol.md, section 3, step 6), not Protocol: m = 2^40 + 1 is one
  // bit too many; n = 2^32 at p = 1e-300 needs m of about 6e12.
  out.push_back(case_from_draft("protocol/integers/u64_m_and_n_beyond_u32",
                                {expect("new mn 1099511627777 3", "err BadParams"),
                                 expect("new mn 18446744073709551615 3", "err BadParams"),
                                 expect("with_rate mn 4294967296 1e-300", "err BadParams"),
                                 expect("with_rate mn 18446744073709551615 0.5", "err BadParams"),
                                 expect("info mn", "err NoSuchFilter")}));
  out.push_back(
      case_from_draft("protocol/integers/plus_sign_refused",
                      {expect("optimal_k +20 4", "err Protocol"), expect("optimal_k -0 4", "err Protocol"),
                       expect("optimal_k 20 -4", "err Protocol")}));
  out.push_back(case_from_draft(
      "protocol/integers/hex_prefix_refused",
      {expect("optimal_k 0x14 4", "err Protocol"), expect("optimal_k 0b10100 4", "err Protocol")}));
  out.push_back(
      case_from_draft("protocol/integers/underscore_refused", {expect("optimal_k 2_0 4", "err Protocol")}));
  out.push_back(case_from_draft(
      "protocol/integers/exponent_refused",
      {expect("optimal_k 2e1 4", "err Protocol"), expect("optimal_k 20.0 4", "err Protocol")}));
  out.push_back(case_from_draft("protocol/integers/u64_max_accepted",
                                {expect("optimal_k 18446744073709551615 18446744073709551615", "ok 1"),
                                 ask("predicted_fp_rate 18446744073709551615 1 1")}));
  out.push_back(case_from_draft("protocol/integers/u64_overflow_refused",
                                {expect("optimal_k 18446744073709551616 1", "err Protocol"),
                                 expect("optimal_k 1 18446744073709551616", "err Protocol"),
                                 expect("optimal_k 99999999999999999999999 1", "err Protocol")}));
  out.push_back(
      case_from_draft("protocol/integers/u32_max_accepted", {ask("predicted_fp_rate 100 4294967295 1")}));
  out.push_back(case_from_draft("protocol/integers/u32_overflow_refused",
                                {expect("predicted_fp_rate 100 4294967296 1", "err Protocol"),
                                 expect("predicted_fp_rate 100 4294967297 1", "err Protocol"),
                                 expect("positions_for 8 4294967297 -", "err Protocol")}));
  out.push_back(case_from_draft(
      "protocol/integers/u32_overflow_refused_in_new",
      {expect("new uo 8 4294967296", "err Protocol"), expect("new uo 8 4294967297", "err Protocol")}));
}

void real_values(std::vector<Case>& out) {
  out.push_back(case_from_draft(
      "protocol/reals/spellings_accepted",
      {expect("optimal_m 4 0.1", "ok 20"), expect("optimal_m 4 1e-1", "ok 20"),
       expect("optimal_m 4 1E-1", "ok 20"), expect("optimal_m 4 1.0e-1", "ok 20"),
       expect("optimal_m 4 100e-3", "ok 20"), expect("optimal_m 4 0.10000", "ok 20"),
       expect("optimal_m 4 1e-01", "ok 20"), expect("optimal_m 4 0.01E+1", "ok 20"),
       expect("with_rate sa 4 nan", "err BadParams"), expect("with_rate sa 4 inf", "err BadParams"),
       expect("with_rate sa 4 -inf", "err BadParams"), expect("with_rate sa 4 -0.1", "err BadParams"),
       expect("info sa", "err NoSuchFilter")}));
  out.push_back(case_from_draft(
      "protocol/reals/plus_sign_refused",
      {expect("optimal_m 4 +0.1", "err Protocol"), expect("optimal_m 4 0.1e+", "err Protocol")}));
  out.push_back(case_from_draft(
      "protocol/reals/word_spellings_refused",
      {expect("optimal_m 4 Infinity", "err Protocol"), expect("optimal_m 4 infinity", "err Protocol"),
       expect("optimal_m 4 NaN", "err Protocol"), expect("optimal_m 4 +inf", "err Protocol"),
       expect("optimal_m 4 -nan", "err Protocol"), expect("optimal_m 4 1_0", "err Protocol")}));
  out.push_back(case_from_draft(
      "protocol/reals/not_a_number_refused",
      {expect("optimal_m 4 abc", "err Protocol"), expect("optimal_m 4 0.1x", "err Protocol"),
       expect("optimal_m 4 1e", "err Protocol"), expect("optimal_m 4 -", "err Protocol"),
       expect("optimal_m 4 e5", "err Protocol"), expect("optimal_m 4 0x1p-3", "err Protocol")}));
}

void name_values(std::vector<Case>& out) {
  const std::string name32(32, 'n');
  out.push_back(case_from_draft("protocol/names/case_sensitive",
                                {ask("new Nc 8 1"), ask("new nc 16 2"), expect("info Nc", "ok 8 1 0"),
                                 expect("info nc", "ok 16 2 0"), ask("drop Nc"), ask("drop nc")}));
  out.push_back(case_from_draft(
      "protocol/names/32_chars_accepted",
      {expect("new " + name32 + " 8 1", "ok"), expect("info " + name32, "ok 8 1 0"), ask("drop " + name32)}));
  out.push_back(case_from_draft(
      "protocol/names/33_chars_refused",
      {expect("new " + name32 + "x 8 1", "err Protocol"), expect("info " + name32 + "x", "err Protocol")}));
  out.push_back(case_from_draft("protocol/names/bad_characters_refused",
                                {expect("new a-b 8 1", "err Protocol"), expect("new a.b 8 1", "err Protocol"),
                                 expect("info a-b", "err Protocol")}));
  out.push_back(case_from_draft(
      "protocol/names/digits_and_underscore_accepted",
      {expect("new 123 8 1", "ok"), expect("new _ 16 1", "ok"), expect("info 123", "ok 8 1 0"),
       expect("info _", "ok 16 1 0"), ask("drop 123"), ask("drop _")}));
}

void values(std::vector<Case>& out) {
  bytes_values(out);
  hash_values(out);
  integer_values(out);
  real_values(out);
  name_values(out);
}

void order_of_checks(std::vector<Case>& out) {
  out.push_back(
      case_from_draft("protocol/errors/order/framing_before_unknown",
                      {expect("frobnicate  x", "err Protocol"), expect(" frobnicate", "err Protocol"),
                       expect("frobnicate\x01", "err Protocol")}));
  out.push_back(
      case_from_draft("protocol/errors/order/unknown_before_argument_count",
                      {expect("frobnicate", "err Unknown"), expect("frobnicate a b c d e", "err Unknown"),
                       expect("INSERT", "err Unknown")}));
  out.push_back(case_from_draft(
      "protocol/errors/order/protocol_before_no_such_filter",
      {expect("insert absent_o1 zz", "err Protocol"), expect("contains absent_o1 abc", "err Protocol"),
       expect("positions absent_o1 0g", "err Protocol")}));
  out.push_back(case_from_draft("protocol/errors/order/protocol_before_no_such_filter_in_union",
                                {expect("union absent_o1 a-b", "err Protocol")}));
  out.push_back(case_from_draft(
      "protocol/errors/order/argument_count_before_no_such_filter",
      {expect("insert absent_o2 00 11", "err Protocol"), expect("info absent_o2 x", "err Protocol"),
       expect("count_ones absent_o2 0", "err Protocol")}));
  out.push_back(
      case_from_draft("protocol/errors/order/protocol_before_bad_params",
                      {expect("new bp 0 x", "err Protocol"), expect("with_rate bp 0 abc", "err Protocol"),
                       expect("new bp 0 4294967296", "err Protocol")}));
  out.push_back(case_from_draft("protocol/errors/order/protocol_before_bad_params_hashing",
                                {expect("positions_for 0 0 xyz", "err Protocol")}));
  out.push_back(case_from_draft(
      "protocol/errors/order/syntax_before_format",
      {expect("from_bytes sf 544c424", "err Protocol"), expect("from_bytes sf 544c42zz", "err Protocol")}));
  out.push_back(case_from_draft("protocol/errors/order/no_such_filter_before_mismatch",
                                {ask("new nm 8 1"), expect("union nm absent_o3", "err NoSuchFilter"),
                                 expect("union absent_o3 nm", "err NoSuchFilter"), ask("drop nm")}));
}

void decisions(std::vector<Case>& out) {
  // docs/format.md, section 7. Each input below is one on which the documented
  // expression and a plausible other one answer differently; the comments
  // give the other answer. p = 0.5 has log(p) = -LN2 exactly, so the platform's
  // log cannot move these (unlike the LogLastBit vectors).
  // (m / n) * LN2 is exactly 2.5 and 4.5 (n is a power of two, so m / n is exact):
  // half away from zero gives 3 and 5; half to even and truncation give 2 and 4.
  out.push_back(case_from_draft("format/optimal_k/half_rounds_away_from_zero",
                                {expect("optimal_k 8121651060695998 2251799813685248", "ok 3"),
                                 expect("optimal_k 7309485954626398 1125899906842624", "ok 5")}));
  // (m * LN2) / n gives 4 and 8.
  out.push_back(case_from_draft(
      "format/optimal_k/divides_before_multiplying",
      {expect("optimal_k 161546953 31993090", "ok 3"), expect("optimal_k 1000950187 92507440", "ok 7")}));
  // m = 2^63, n = 2^40: 5814540; through an i64, m is negative and k is 1.
  out.push_back(case_from_draft("format/optimal_k/m_at_least_2_pow_63",
                                {expect("optimal_k 9223372036854775808 1099511627776", "ok 5814540")}));
  // ideal = 2557493708.0 exactly: ceil keeps it; floor + 1 and dividing by LN2 twice give 2557493709.
  out.push_back(case_from_draft(
      "format/optimal_m/exact_integer_kept",
      {expect("optimal_m 1772719553 0.5", "ok 2557493708"), ask("optimal_m 1000 0.3718544533674343")}));
  out.push_back(case_from_draft("format/optimal_m/divides_once",
                                {expect("optimal_m 1772719553 0.5", "ok 2557493708")}));
  // ideal = 5812485700.000001: the reciprocal constant, the literal 0.48045301391820144
  // and -n log2(p) / LN2 all give exactly 5812485700.
  out.push_back(case_from_draft("format/optimal_m/no_reciprocal",
                                {expect("optimal_m 4028908075 0.5", "ok 5812485701")}));
  out.push_back(case_from_draft("format/optimal_m/ln2_squared_is_the_product",
                                {expect("optimal_m 4028908075 0.5", "ok 5812485701")}));
  out.push_back(
      case_from_draft("format/optimal_m/natural_log", {expect("optimal_m 4028908075 0.5", "ok 5812485701")}));
  // ideal = 1482.0000000000005 (and stays above 1482 with log one unit off either way):
  // ceil(ideal - 1e-9) would give 1482.
  out.push_back(case_from_draft("format/optimal_m/no_tolerance",
                                {expect("optimal_m 1 5.8709249943292e-310", "ok 1483")}));
  // n = 2^63 at p = 0.5: 2^63 / ln 2, about 1.33e19, below 2^64; an i64 n gives 0,
  // an i64 result saturates at 2^63 - 1.
  out.push_back(
      case_from_draft("format/optimal_m/n_at_least_2_pow_63", {ask("optimal_m 9223372036854775808 0.5")}));
  // k * n = 2^64: in doubles the load is huge and the rate 1; wrapped in u64 it is 0.
  out.push_back(case_from_draft("format/predicted_fp_rate/k_times_n_beyond_2_pow_64",
                                {expect("predicted_fp_rate 1000 2 9223372036854775808", "ok ~1")}));
  // Saturation at the bound itself (format.md 7): (2385586287207 / 385) * LN2
  // is 4294967296.0 exactly and the ideal m of n = 10^19 at this p rounds up
  // to 2^64 exactly, so `>` where `>=` belongs answers 2^32 (no u32) and 2^64
  // (no u64). The answers saturate; err BadParams is acceptable (OutOfDomain).
  for (auto [name, request] :
       {std::pair<const char*, const char*>{"format/optimal_k/saturates_at_exactly_2_pow_32",
                                            "optimal_k 2385586287207 385"},
        {"format/optimal_m/saturates_at_exactly_2_pow_64",
         "optimal_m 10000000000000000000 0.4121864931719917"}}) {
    Case c = case_from_draft(name, {ask(request)});
    c.acceptable = true;  // its answer saturates: OutOfDomain's zone
    c.why = "OutOfDomain";
    out.push_back(std::move(c));
  }
  // The one NaN any answer can be (docs/format.md, section 7): the rate at
  // m = 0 and k * n = 0, 0 / 0 in the exponent. It lies in OutOfDomain's zone,
  // where any real or err BadParams is acceptable, but a real is spelled as
  // section 2 of docs/protocol.md spells it: `NaN` or `NAN` is no real. No
  // answer is ever infinite (a rate is at most 1).
  {
    Case c = case_from_draft("format/predicted_fp_rate/nan_spelled_as_a_real",
                             {ask("predicted_fp_rate 0 3 0"), ask("predicted_fp_rate 0 65536 0")});
    c.acceptable = true;
    c.why = "OutOfDomain";
    out.push_back(std::move(c));
  }
  // positions may repeat (section 3): with m = 1 every position is 0.
  out.push_back(
      case_from_draft("format/positions/repeats_kept",
                      {expect("positions_for 1 5 636174", "ok 0 0 0 0 0"), ask("positions_for 3 8 636174")}));
  // k = 65536 is MAX_K itself (section 5), so it is allowed.
  out.push_back(case_from_draft("format/positions/k_bound_inclusive",
                                {ask("positions_for 8 65536 61"), expect("new kb 8 65536", "ok"),
                                 expect("info kb", "ok 8 65536 0"), ask("drop kb")}));
}

void headers(std::vector<Case>& out) {
  // docs/format.md, sections 5 and 10: every header field at its full width.
  Header h;
  h.m = (std::uint64_t{1} << 32) + 20;
  h.k = 3;
  h.bit_bytes = 3;  // what m = 20 would need
  Header h2 = h;
  h2.m = (std::uint64_t{1} << 40) + 20;
  out.push_back(case_from_draft(
      "format/header/m_upper_32_bits",
      {expect("from_bytes hm " + file_hex(h), "err Format"),
       expect("from_bytes hm " + file_hex(h2), "err Format"), expect("info hm", "err NoSuchFilter")}));
  Header k16;
  k16.k = 65536;
  out.push_back(case_from_draft(
      "format/header/k_above_16_bits",
      concat({{expect("from_bytes hk " + file_hex(k16), "ok"), expect("info hk", "ok 8 65536 0")},
              load_and_read("hk", file_hex(k16))})));
  Header n32;
  n32.n = (std::uint64_t{1} << 32) + 5;
  out.push_back(case_from_draft(
      "format/header/n_inserted_upper_bits",
      concat({{expect("from_bytes hn " + file_hex(n32), "ok"), expect("info hn", "ok 8 1 4294967301")},
              load_and_read("hn", file_hex(n32))})));
  Header n63;
  n63.n = (std::uint64_t{1} << 63) + 1;
  out.push_back(case_from_draft("format/header/n_inserted_top_bit",
                                concat({{expect("from_bytes ht " + file_hex(n63), "ok"),
                                         expect("info ht", "ok 8 1 9223372036854775809")},
                                        load_and_read("ht", file_hex(n63))})));
  // Refused values of m and k in a file whose every other check passes: an
  // m = 0 file is the bare header (ceil(0 / 8) = 0 bytes of bits), so a
  // reader that forgets m's lower bound and checks the length finds nothing
  // wrong; a k = 0 file with m = 8 has its one byte.
  Header m0;
  m0.m = 0;
  m0.k = 3;
  m0.bit_bytes = 0;
  Header k0;
  k0.k = 0;
  out.push_back(case_from_draft(
      "format/header/m_zero_with_its_length",
      {expect("from_bytes hz " + file_hex(m0), "err Format"), expect("info hz", "err NoSuchFilter")}));
  out.push_back(case_from_draft(
      "format/header/k_zero_with_its_length",
      {expect("from_bytes hk0 " + file_hex(k0), "err Format"), expect("info hk0", "err NoSuchFilter")}));
  Header r1, r2;
  r1.reserved = 0x01000000;
  r2.reserved = 0x00000100;
  out.push_back(case_from_draft("format/header/reserved_high_bytes",
                                {expect("from_bytes hr " + file_hex(r1), "err Format"),
                                 expect("from_bytes hr " + file_hex(r2), "err Format")}));
  Header v1, v2;
  v1.version = 0x00000101;
  v2.version = 0x01000001;
  out.push_back(case_from_draft("format/header/version_high_bytes",
                                {expect("from_bytes hv " + file_hex(v1), "err Format"),
                                 expect("from_bytes hv " + file_hex(v2), "err Format")}));
}

void items(std::vector<Case>& out) {
  out.push_back(case_from_draft("items/containing_0d0a", {ask("fnv1a64 0d0a"), ask("fnv1a64 610d0a62"),
                                                          ask("positions_for 1000 4 0d0a")}));
  out.push_back(case_from_draft(
      "items/containing_0d0a_in_a_filter",
      {ask("new cl 1000 4"), ask("insert cl 0d0a"), ask("positions cl 0d0a"),
       expect("contains cl 0d0a", "ok true"), ask("contains cl 0a"), ask("count_ones cl"), ask("drop cl")}));
  const std::string big = hex_of(pattern_item(5000));
  const std::string prefix = big.substr(0, 2 * 4096);
  out.push_back(case_from_draft("items/longer_than_4kib", {ask("fnv1a64 " + big), ask("fnv1a64 " + prefix),
                                                           ask("positions_for 1000003 7 " + big)}));
  out.push_back(case_from_draft(
      "items/longer_than_4kib_in_a_filter",
      {ask("new lk 4096 4"), ask("insert lk " + big), expect("contains lk " + big, "ok true"),
       ask("contains lk " + prefix), ask("positions lk " + big), ask("count_ones lk"), ask("drop lk")}));
  // Past 64 KiB, where a reader with a 64 KiB item buffer cuts it: one item in
  // a filter of a million bits, so its 64 KiB prefix is not found.
  const std::string huge = hex_of(pattern_item(70'000));
  const std::string prefix_64kib = huge.substr(0, 2 * 65'536);
  out.push_back(case_from_draft(
      "items/longer_than_64kib_in_a_filter",
      {ask("new lh 1000003 7"), ask("insert lh " + huge), expect("contains lh " + huge, "ok true"),
       expect("contains lh " + prefix_64kib, "ok false"), ask("positions lh " + huge),
       ask("positions lh " + prefix_64kib), ask("drop lh")}));
}

void state_many_filters(std::vector<Case>& out) {
  // More filters than any small fixed table holds, each told apart by its m.
  Steps many;
  // 1,100: well above 128, 256, 512 and 1024, the sizes a fixed table is likely to have.
  const int count = 1100;
  for (int i = 0; i < count; ++i)
    many.push_back(expect("new many_" + std::to_string(i) + " " + std::to_string(i + 1) + " 1", "ok"));
  for (int i = 0; i < count; ++i) {
    many.push_back(expect("info many_" + std::to_string(i), "ok " + std::to_string(i + 1) + " 1 0"));
  }
  for (int i = 0; i < count; ++i) many.push_back(expect("drop many_" + std::to_string(i), "ok"));
  out.push_back(case_from_draft("state/many_filters_alive", many));
}

void state_unions(std::vector<Case>& out) {
  out.push_back(case_from_draft(
      "state/union_does_not_alias",
      {ask("new al_a 64 2"), ask("new al_b 64 2"), ask("insert al_b 01"), ask("union al_a al_b"),
       ask("insert al_a 02"), ask("insert al_a 03"), ask("count_ones al_b"), ask("to_bytes al_b"),
       ask("insert al_b 04"), ask("to_bytes al_a"), ask("drop al_a"), ask("drop al_b")}));
  out.push_back(case_from_draft(
      "state/refused_union_changes_neither",
      {ask("new ru_a 20 3"), ask("insert ru_a 636174"), ask("new ru_b 24 3"), ask("insert ru_b 646f67"),
       expect("union ru_a ru_b", "err Mismatch"), expect("info ru_a", "ok 20 3 1"), ask("to_bytes ru_a"),
       expect("info ru_b", "ok 24 3 1"), ask("to_bytes ru_b"), ask("new ru_c 20 4"),
       ask("insert ru_c 62697264"), expect("union ru_a ru_c", "err Mismatch"),
       expect("info ru_a", "ok 20 3 1"), ask("to_bytes ru_a"), expect("info ru_c", "ok 20 4 1"),
       ask("to_bytes ru_c"), ask("drop ru_a"), ask("drop ru_b"), ask("drop ru_c")}));
  // docs/protocol.md's own example of Mismatch: m = 20 and m = 24 both take 3 bytes.
  out.push_back(
      case_from_draft("state/union_mismatch_same_byte_length",
                      {ask("new sb_a 20 3"), ask("new sb_b 24 3"), expect("union sb_a sb_b", "err Mismatch"),
                       expect("union sb_b sb_a", "err Mismatch"), ask("drop sb_a"), ask("drop sb_b")}));
  out.push_back(case_from_draft(
      "state/union_self_doubles_count",
      {ask("new us 20 3"), ask("insert us 636174"), ask("insert us 646f67"), expect("union us us", "ok"),
       expect("info us", "ok 20 3 4"),
       expect("to_bytes us", "ok 544c424601000000140000000000000003000000000000000400000000000000096802"),
       expect("count_ones us", "ok 6"), ask("drop us")}));
  out.push_back(case_from_draft(
      "state/union_leaves_the_right_filter",
      {ask("new ul_a 20 3"), ask("insert ul_a 636174"), ask("new ul_b 20 3"), ask("insert ul_b 646f67"),
       expect("union ul_a ul_b", "ok"), ask("to_bytes ul_b"), expect("info ul_b", "ok 20 3 1"),
       ask("to_bytes ul_a"), ask("drop ul_a"), ask("drop ul_b")}));
}

void state_drops_and_replacements(std::vector<Case>& out) {
  out.push_back(case_from_draft(
      "state/drop_missing_is_no_such_filter",
      {expect("drop absent_drop", "err NoSuchFilter"), expect("info absent_drop", "err NoSuchFilter")}));
  out.push_back(case_from_draft(
      "state/dropped_filter_is_gone",
      {expect("new dg 8 1", "ok"), expect("drop dg", "ok"), expect("info dg", "err NoSuchFilter"),
       expect("drop dg", "err NoSuchFilter"), expect("insert dg 00", "err NoSuchFilter")}));
  out.push_back(
      case_from_draft("state/new_replaces_existing",
                      {ask("new nr 20 3"), ask("insert nr 636174"), expect("new nr 24 2", "ok"),
                       expect("info nr", "ok 24 2 0"), expect("count_ones nr", "ok 0"), ask("drop nr")}));
  out.push_back(
      case_from_draft("state/with_rate_replaces_existing",
                      {ask("with_rate wr 4 0.1"), ask("insert wr 61"), expect("with_rate wr 1 0.5", "ok"),
                       expect("info wr", "ok 2 1 0"), expect("count_ones wr", "ok 0"), ask("drop wr")}));
  out.push_back(case_from_draft(
      "state/from_bytes_replaces_existing",
      {ask("new fr 24 2"), ask("insert fr 61"),
       expect("from_bytes fr 544c424601000000140000000000000003000000000000000200000000000000096802", "ok"),
       expect("info fr", "ok 20 3 2"), expect("count_ones fr", "ok 6"), ask("drop fr")}));
  // Replaced by a filter of the same m and k: a fresh filter, not the old
  // bits under a new count (an implementation that reuses a same-shape
  // filter's storage without clearing it keeps them).
  out.push_back(case_from_draft(
      "state/new_same_shape_starts_empty",
      {ask("new ns 64 3"), ask("insert ns 61"), ask("insert ns 62"), expect("new ns 64 3", "ok"),
       expect("count_ones ns", "ok 0"), expect("contains ns 61", "ok false"),
       expect("contains ns 62", "ok false"), expect("info ns", "ok 64 3 0"), ask("drop ns")}));
  out.push_back(case_from_draft(
      "state/with_rate_same_shape_starts_empty",
      {ask("with_rate ws 4 0.1"), ask("insert ws 636174"), ask("insert ws 646f67"),
       expect("with_rate ws 4 0.1", "ok"), expect("count_ones ws", "ok 0"),
       expect("contains ws 636174", "ok false"), expect("info ws", "ok 20 3 0"), ask("drop ws")}));
}

void state_answers_follow_changes(std::vector<Case>& out) {
  // Every answer reflects the filter as it is now: an answer remembered from
  // before a union, a replacement or a drop is stale. Each question is asked
  // before the change too, so that a cache has something to remember.
  out.push_back(case_from_draft(
      "state/answers_follow_union",
      {ask("new cu_a 64 3"), ask("new cu_b 64 3"), ask("insert cu_b 61"),
       expect("contains cu_a 61", "ok false"), expect("count_ones cu_a", "ok 0"),
       expect("union cu_a cu_b", "ok"), expect("contains cu_a 61", "ok true"), ask("count_ones cu_a"),
       expect("info cu_a", "ok 64 3 1"), ask("drop cu_a"), ask("drop cu_b")}));
  out.push_back(case_from_draft(
      "state/to_bytes_follows_union",
      {ask("new tu_a 20 3"), ask("new tu_b 20 3"), ask("insert tu_b 636174"), ask("to_bytes tu_a"),
       expect("union tu_a tu_b", "ok"),
       expect("to_bytes tu_a", "ok 544c424601000000140000000000000003000000000000000100000000000000004802"),
       ask("drop tu_a"), ask("drop tu_b")}));
  out.push_back(case_from_draft("state/answers_follow_replacement", {ask("new cr 64 3"),
                                                                     ask("insert cr 61"),
                                                                     expect("contains cr 61", "ok true"),
                                                                     ask("count_ones cr"),
                                                                     expect("new cr 64 3", "ok"),
                                                                     expect("contains cr 61", "ok false"),
                                                                     expect("count_ones cr", "ok 0"),
                                                                     ask("insert cr 61"),
                                                                     expect("contains cr 61", "ok true"),
                                                                     ask("count_ones cr"),
                                                                     expect("with_rate cr 4 0.1", "ok"),
                                                                     expect("contains cr 61", "ok false"),
                                                                     expect("count_ones cr", "ok 0"),
                                                                     ask("insert cr 61"),
                                                                     expect("contains cr 61", "ok true"),
                                                                     expect("drop cr", "ok"),
                                                                     expect("new cr 64 3", "ok"),
                                                                     expect("contains cr 61", "ok false"),
                                                                     expect("count_ones cr", "ok 0"),
                                                                     ask("drop cr")}));
  // docs/format.md's worked example (cat and dog in m = 20, k = 3) loaded over
  // an empty filter of the same shape that has answered for cat.
  out.push_back(case_from_draft(
      "state/answers_follow_from_bytes",
      {ask("new cb 20 3"), expect("contains cb 636174", "ok false"), expect("count_ones cb", "ok 0"),
       expect("from_bytes cb 544c424601000000140000000000000003000000000000000200000000000000096802", "ok"),
       expect("contains cb 636174", "ok true"), expect("count_ones cb", "ok 6"),
       expect("info cb", "ok 20 3 2"), ask("drop cb")}));
}

void state_insert_counts(std::vector<Case>& out) {
  // insert's count saturates at 2^64 - 1 (docs/format.md, section 9) and
  // carries past 2^32, from counts only a file can give.
  Header at_max, below_2_32, below_2_33;
  at_max.n = ~std::uint64_t{0};
  below_2_32.n = 0xffffffff;
  below_2_33.n = 0x1ffffffff;
  out.push_back(case_from_draft(
      "state/insert_count_saturates",
      {expect("from_bytes is " + file_hex(at_max), "ok"), expect("insert is 61", "ok"),
       expect("info is", "ok 8 1 18446744073709551615"), expect("insert is 62", "ok"),
       expect("info is", "ok 8 1 18446744073709551615"), ask("to_bytes is"), ask("drop is")}));
  out.push_back(
      case_from_draft("state/insert_count_carries_past_2_pow_32",
                      {expect("from_bytes ic " + file_hex(below_2_32), "ok"), expect("insert ic 61", "ok"),
                       expect("info ic", "ok 8 1 4294967296"),
                       expect("from_bytes ic " + file_hex(below_2_33), "ok"), expect("insert ic 61", "ok"),
                       expect("info ic", "ok 8 1 8589934592"), ask("to_bytes ic"), ask("drop ic")}));
}

void state_failed_commands(std::vector<Case>& out) {
  out.push_back(
      case_from_draft("state/failed_commands_change_nothing",
                      {ask("new fc 20 3"), ask("insert fc 636174"), expect("new fc 0 3", "err BadParams"),
                       expect("info fc", "ok 20 3 1"), expect("with_rate fc 0 0.1", "err BadParams"),
                       expect("info fc", "ok 20 3 1"), expect("from_bytes fc 544c4246", "err Format"),
                       expect("info fc", "ok 20 3 1"), ask("to_bytes fc"), ask("drop fc")}));
  out.push_back(case_from_draft(
      "state/failed_create_does_not_create",
      {expect("new absent_fn 0 3", "err BadParams"), expect("info absent_fn", "err NoSuchFilter"),
       expect("with_rate absent_fw 0 0.5", "err BadParams"), expect("info absent_fw", "err NoSuchFilter"),
       expect("from_bytes absent_ff 00", "err Format"), expect("info absent_ff", "err NoSuchFilter")}));
}

void state(std::vector<Case>& out) {
  state_many_filters(out);
  state_unions(out);
  state_drops_and_replacements(out);
  state_answers_follow_changes(out);
  state_insert_counts(out);
  state_failed_commands(out);
}

Case finish(std::string name, std::vector<DraftStep> steps, bool acceptable, std::string why) {
  Case c = case_from_draft(std::move(name), std::move(steps));
  c.acceptable = acceptable;
  c.why = std::move(why);
  return c;
}

// The oracle's to_bytes of filter `name` after `requests`, as hex.
std::string oracle_file(const std::vector<std::string>& requests, const std::string& name) {
  protocol::OracleSession oracle;
  for (const auto& r : requests) oracle.handle(r);
  return oracle.handle("to_bytes " + name).substr(3);
}

void adversaries_counts_and_probes(std::vector<Case>& out) {
  // A file whose count says 0 but whose bits are set: contains and count_ones
  // read the bits, not the count (a "nothing inserted, nothing found" shortcut).
  std::string counted_none = oracle_file({"new t 20 3", "insert t 636174"}, "t");
  counted_none.replace(48, 16, "0000000000000000");
  out.push_back(
      case_from_draft("state/bits_not_the_count_decide",
                      {ask("from_bytes bc " + counted_none), expect("contains bc 636174", "ok true"),
                       ask("count_ones bc"), ask("info bc"), ask("drop bc")}));
  // hello is a request like any other: it starts nothing and forgets nothing.
  out.push_back(case_from_draft("state/hello_forgets_nothing",
                                {ask("new hf 8 1"), ask("insert hf 00"), expect("hello", "ok 1 *"),
                                 ask("info hf"), ask("to_bytes hf"), ask("drop hf")}));
  // Not here: a filter of m at or above 2^32 (docs/check.md, "Known limits").
  // A file with the first 32 of the 33 probe bits of "cat" set: a contains
  // that looks at 32 probes at most says true.
  {
    protocol::OracleSession oracle;
    oracle.handle("new p33 1000 33");
    const std::string answer = oracle.handle("positions p33 636174");
    std::vector<std::uint64_t> positions;
    std::istringstream words(answer.substr(3));
    for (std::uint64_t g; words >> g;) positions.push_back(g);
    std::vector<std::uint8_t> bits(125, 0);
    for (std::size_t i = 0; i + 1 < positions.size(); ++i)
      bits[positions[i] / 8] |= static_cast<std::uint8_t>(1 << (positions[i] % 8));
    // The 33rd must be a bit of its own, or the case would test nothing.
    const bool own = std::count(positions.begin(), positions.end() - 1, positions.back()) == 0;
    std::string file = file_hex({1, 1000, 33, 0, 1, 0});
    file.replace(64, std::string::npos, hex_of(bits));
    if (own) {
      out.push_back(case_from_draft("items/contains_reads_every_probe",
                                    {ask("from_bytes rp " + file), expect("contains rp 636174", "ok false"),
                                     ask("count_ones rp"), ask("drop rp")}));
    }
  }
}

void adversaries_k_and_rates(std::vector<Case>& out) {
  // k above 1024 probes set and read in full (a buffer sized for with_rate's
  // usual k is not enough).
  out.push_back(case_from_draft("items/k_above_1024_probes_all",
                                {ask("new kp 4096 2000"), ask("insert kp 636174"), ask("count_ones kp"),
                                 ask("contains kp 636174"), ask("drop kp")}));
  // with_rate's k rounds (m / n) ln 2 half away from zero, like optimal_k:
  // here it is 2.5 exactly, and a round half to even gives 2.
  out.push_back(case_from_draft("format/with_rate/k_half_rounds_away_from_zero",
                                {ask("with_rate wk 44790326 0.17677669624475342"),
                                 expect("info wk", "ok 161546953 3 0"), ask("drop wk")}));
  // with_rate's k is at least 1, as optimal_k's is: here (m / n) ln 2 is
  // 0.15, which rounds to 0 (and -log2(0.9), another k a porter may take, too).
  out.push_back(
      case_from_draft("format/with_rate/k_at_least_1",
                      {ask("with_rate wo 1000 0.9"), expect("info wo", "ok 220 1 0"), ask("drop wo")}));
  // k is a u32 in the rate: through an i32 exponent (powi) it turns negative.
  out.push_back(case_from_draft("format/predicted_fp_rate/k_beyond_i32",
                                {ask("predicted_fp_rate 93368854 2147483648 1")}));
  // pow(0, 0) = 1: no items and no probes.
  out.push_back(case_from_draft("format/predicted_fp_rate/k_and_n_zero", {ask("predicted_fp_rate 8 0 0")}));
}

void adversaries_names_and_files(std::vector<Case>& out) {
  // An answer cached for positions must follow a from_bytes that replaces the filter.
  out.push_back(case_from_draft("state/positions_follow_from_bytes",
                                {ask("new pf 20 3"), ask("positions pf 636174"),
                                 ask("from_bytes pf " + oracle_file({"new t 13 2"}, "t")),
                                 ask("positions pf 636174"), ask("drop pf")}));
  // Names told apart by their last characters, past 15 and 16 bytes.
  out.push_back(case_from_draft(
      "protocol/names/long_names_told_apart",
      {ask("new aaaaaaaaaaaaaaaa1 8 1"), ask("new aaaaaaaaaaaaaaaa2 16 1"),
       ask("new bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb1 24 1"), ask("new bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2 32 1"),
       ask("info aaaaaaaaaaaaaaaa1"), ask("info aaaaaaaaaaaaaaaa2"),
       ask("info bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb1"), ask("info bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2"),
       ask("drop aaaaaaaaaaaaaaaa1"), ask("drop aaaaaaaaaaaaaaaa2"),
       ask("drop bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb1"), ask("drop bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2")}));
  // Uppercase hex is bytes in a file too, not only in items.
  std::string upper = oracle_file({"new t 20 3", "insert t 636174"}, "t");
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  out.push_back(case_from_draft("protocol/bytes/uppercase_file_accepted",
                                {ask("from_bytes uf " + upper), ask("to_bytes uf"), ask("drop uf")}));
  // Names are checked by every command that takes one, not only by new.
  out.push_back(
      case_from_draft("protocol/names/checked_by_every_command",
                      {expect("from_bytes a-b " + oracle_file({"new t 20 3"}, "t"), "err Protocol"),
                       expect("with_rate nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnx 4 0.1", "err Protocol"),
                       expect("with_rate a.b 4 0.1", "err Protocol"), expect("info a-b", "err Protocol")}));
  // A file above 64 KiB loads (a filter of 600,000 bits is 75,032 bytes).
  out.push_back(
      case_from_draft("items/file_above_64kib_loads",
                      {ask("from_bytes bf " + oracle_file({"new t 600000 1", "insert t 636174"}, "t")),
                       ask("count_ones bf"), ask("contains bf 636174"), ask("info bf"), ask("drop bf")}));
  // More than 65,535 bits set: count_ones is not a 16-bit count.
  std::string full = file_hex({1, 65544, 1, 0, 0, 0});
  full += std::string(2 * 8193, 'f');
  out.push_back(case_from_draft("format/count_ones/above_16_bits",
                                {ask("from_bytes cf " + full), ask("count_ones cf"), ask("drop cf")}));
}

// docs/check.md, "What is acceptable": an acceptable answer opens only the
// fields it leaves undecided. Each case takes such an answer's zone, then
// reads a field it leaves decided, which an implementation that took the
// other answer must still answer exactly.
void open_by_field(std::vector<Case>& out) {
  // Union tcId 9's counts, 2^64 - 2 and 5, pass 2^64 - 1. b holds bits 0 to
  // 3; dog's one position at m = 8, k = 1 is its h1 mod 8 = 1 (format.md's
  // worked example: h1 ends in e9), so the union, a OR b, finds dog.
  out.push_back(
      finish("state/open_by_field/union_past_the_count_still_ors",
             {ask("from_bytes oa " + file_hex({1, 8, 1, 0, 0xfffffffffffffffe, 1, 0})),
              ask("from_bytes ob " + file_hex({1, 8, 1, 0, 5, 1, 0x0f})), expect("union oa ob", "ok"),
              expect("contains oa 646f67", "ok true"), expect("count_ones oa", "ok 4"), ask("to_bytes oa"),
              ask("info oa"), ask("drop oa"), ask("drop ob")},
             true, "CountSaturates"));
  // Sizing tcId 12's n and p: m = 20, or 21 by a log one ulp off; k follows
  // from m (3 or 4), and so do cat's bits.
  out.push_back(finish("state/open_by_field/with_rate_k_and_bits_follow_m",
                       {expect("with_rate ow 4 0.09051270335250715", "ok"), ask("info ow"),
                        ask("insert ow 636174"), expect("contains ow 636174", "ok true"),
                        ask("count_ones ow"), ask("positions ow 636174"), ask("to_bytes ow"), ask("drop ow")},
                       true, "LogLastBit"));
  // A k above 65536, accepted, is the k given, not 65536: info and the
  // file's header say so. The oracle refuses it, so the name is absent_ for
  // it; the file is from_bytes tcId 30's (the worked example with k = 65537).
  const std::string k65537 = "544c424601000000140000000000000001000100000000000200000000000000096802";
  out.push_back(finish("state/open_by_field/k_above_max_k_kept_as_given",
                       {ask("new absent_ok 20 65537"), ask("info absent_ok"), ask("insert absent_ok 636174"),
                        ask("contains absent_ok 636174"), ask("count_ones absent_ok"),
                        ask("to_bytes absent_ok"), ask("from_bytes absent_ok " + k65537),
                        ask("info absent_ok"), ask("to_bytes absent_ok"), ask("drop absent_ok")},
                       true, "StrictKBound"));
}

// Every request gets one line (docs/protocol.md, section 1), a new or a
// with_rate of the largest m the documents allow (2^40: 128 GiB of bits)
// too: an implementation that exits when it cannot allocate answers nothing.
// ok and err BadParams are both right (CannotAllocate, judge.hpp); the
// patterns state ok, the judge takes err BadParams and what follows from it.
// The oracle is not asked, since its answer would be the machine's.
void largest_filters(std::vector<Case>& out) {
  const std::string m = std::to_string(MAX_BITS);
  out.push_back(finish("protocol/session/largest_new_answered",
                       {expect("new big_new " + m + " 1", "ok"), expect("info big_new", "ok " + m + " 1 0"),
                        expect("insert big_new 636174", "ok"), expect("contains big_new 636174", "ok true"),
                        expect("drop big_new", "ok")},
                       true, "CannotAllocate"));
  // optimal_m(576524084580, 0.4) is 2^40 (its ideal m is 2^40 - 0.42, far
  // from a log one ulp off), and optimal_k(2^40, 576524084580) is 1.
  out.push_back(finish("protocol/session/largest_with_rate_answered",
                       {expect("with_rate big_rate 576524084580 0.4", "ok"),
                        expect("info big_rate", "ok " + m + " 1 0"), expect("drop big_rate", "ok")},
                       true, "CannotAllocate"));
}

// A filter of 2^31 + 64 bits (256 MiB), just past where a signed 32-bit bit
// index (Java's (int) cast, a C int) turns negative, in the default check:
// the large group (2^32 and up) runs only when asked for. k = 1, so each
// item's one position is fnv1a64(item) mod m. The items were found by a
// search over 4-byte items (each position below is also what the bundled
// Python implementation computes; rule_cases_tests holds the oracle to these
// patterns): 72553e04 and e67a7c06 land at 2^31 + 58 and 2^31 + 27, in the
// last 64 bits; c2853805 and 3d4def05 at 2^31 - 9 and 2^31 - 49. No to_bytes
// (a line of 512 MiB); count_ones reads every byte once. An implementation
// whose bits are one Python int copies 256 MiB on every insert and may take
// seconds for one answer after answering everything before in milliseconds,
// which the adaptive timeout would call hung: each answer here may take 30 s.
void index_past_2_pow_31(std::vector<Case>& out) {
  Case c = case_from_draft(
      "state/index_past_2_pow_31",
      {expect("new i31 2147483712 1", "ok"), expect("info i31", "ok 2147483712 1 0"),
       expect("positions i31 72553e04", "ok 2147483706"), expect("positions i31 c2853805", "ok 2147483639"),
       expect("insert i31 72553e04", "ok"), expect("insert i31 c2853805", "ok"),
       expect("contains i31 72553e04", "ok true"), expect("contains i31 c2853805", "ok true"),
       expect("contains i31 e67a7c06", "ok false"), expect("contains i31 3d4def05", "ok false"),
       expect("count_ones i31", "ok 2"), expect("insert i31 e67a7c06", "ok"),
       expect("contains i31 e67a7c06", "ok true"), expect("count_ones i31", "ok 3"),
       expect("info i31", "ok 2147483712 1 3"), expect("drop i31", "ok")});
  c.patience = std::chrono::seconds(30);
  out.push_back(std::move(c));
}

// Mistakes an adversary's ports of the format made that every earlier case
// passed (docs/check.md, "The bug bank" has each as a bug).
void found_by_adversaries(std::vector<Case>& out) {
  adversaries_counts_and_probes(out);
  adversaries_k_and_rates(out);
  adversaries_names_and_files(out);
  open_by_field(out);
}

}  // namespace

Case case_from_draft(std::string name, std::vector<DraftStep> steps) {
  Case c;
  c.name = std::move(name);
  bool asks = false;
  for (const auto& s : steps) asks = asks || s.stated.empty();
  protocol::OracleSession oracle;
  for (auto& s : steps) {
    // The oracle answers every request when any pattern is its own, so that
    // the requests before one it answers have had their effect.
    std::string pattern = std::move(s.stated);
    if (asks) {
      const std::string answer = oracle.handle(s.request);
      if (pattern.empty()) pattern = pattern_of(s.request, answer);
    }
    if (auto cap = capability_of(std::string_view(s.request).substr(0, s.request.find(' '))))
      c.needs.insert(*cap);
    // Moved, not copied: one request is 16 MiB.
    c.steps.push_back({std::move(s.request), std::move(pattern)});
  }
  return c;
}

std::vector<Case> rule_cases() {
  std::vector<Case> out;
  framing(out);
  commands_and_arguments(out);
  values(out);
  order_of_checks(out);
  decisions(out);
  headers(out);
  items(out);
  state(out);
  found_by_adversaries(out);
  largest_filters(out);
  index_past_2_pow_31(out);
  for (auto* family : {grammar_cases, width_cases, identity_cases, header_edge_cases, error_order_cases}) {
    for (auto& c : family()) out.push_back(std::move(c));
  }
  return out;
}

namespace {
// The k of a file given as hex: bytes 16 to 19, little-endian.
std::uint64_t header_k(std::string_view hex) {
  std::uint64_t k = 0;
  for (int byte = 3; byte >= 0; --byte) {
    const auto at = static_cast<std::size_t>(32 + 2 * byte);
    k = k << 8 | std::stoul(std::string(hex.substr(at, 2)), nullptr, 16);
  }
  return k;
}
}  // namespace

std::vector<Case> corpus_cases() {
  std::vector<Case> out;
  for (const auto& [file, hex] : kFromBytesCorpus) {
    const std::string word = hex.empty() ? "-" : std::string(hex);
    protocol::OracleSession oracle;
    const bool loads = oracle.handle("from_bytes c " + word) == "ok";
    Steps steps = loads ? load_and_read("corpus_fb", word) : Steps{ask("from_bytes corpus_fb " + word)};
    // Refused for a k above 65536 alone? The vectors call accepting such k
    // acceptable (StrictKBound); k = 0 is refused everywhere.
    bool k_only = false;
    if (!loads && hex.size() >= 64 && header_k(hex) > MAX_K) {
      std::string with_k1(hex);
      with_k1.replace(32, 8, "01000000");
      k_only = oracle.handle("from_bytes c " + with_k1) == "ok";
    }
    out.push_back(finish("corpus/from_bytes/" + std::string(file.substr(0, 12)), std::move(steps), k_only,
                         k_only ? "StrictKBound" : ""));
  }
  return out;
}

InteractiveCase end_of_input_case() {
  InteractiveCase c;
  c.name = "protocol/framing/last_line_without_newline_answered";
  // A Session sends whole lines and cannot close the input halfway through
  // one, so this case runs a process of its own.
  c.run_alone = [](const std::string& command, const Budget& budget) -> std::optional<Finding> {
    const RunResult r = run_with_input(command, "hello", budget.first_answer);
    const std::string sent =
        "sent 'hello' without its \\n and closed its input (printf hello | " + command +
        "): docs/protocol.md, section 1, says such a last line is still a request and is answered, "
        "and the implementation then exits with status 0; ";
    Finding f;
    f.stderr_tail = last_lines(r.err, 10);
    if (!r.started) {
      f.reason = sent + "but it could not be started";
      f.fault = Fault{FaultKind::NotStarted, "could not be started (" + r.start_error + ")"};
      return f;
    }
    if (r.timed_out) {
      f.reason = sent + "but it had not ended after " + std::to_string(budget.first_answer.count()) +
                 " ms and was killed" +
                 (r.out.empty() ? " (it wrote nothing)" : ", having written " + readable(r.out, 200));
      f.fault = Fault{FaultKind::Hung, "gave no answer to a last line without \\n within " +
                                           std::to_string(budget.first_answer.count()) + " ms"};
      return f;
    }
    const std::size_t newline = r.out.find('\n');
    if (r.out.empty()) {
      f.reason = sent + "it wrote nothing";
    } else if (newline == std::string::npos) {
      f.reason = sent + "its answer " + readable(r.out, 200) + " has no \\n at its end";
    } else if (newline + 1 != r.out.size()) {
      f.reason = sent + "it wrote more than one line: " + readable(r.out, 200);
    } else if (const auto why = mismatch("ok 1 *", std::string_view(r.out).substr(0, newline))) {
      f.reason = sent + "its answer is wrong: " + why->what;
    }
    if (!r.exited_cleanly()) {
      f.reason += (f.reason.empty() ? sent + "it answered, but then ended with " : "; then it ended with ") +
                  r.how_it_ended();
    }
    if (f.reason.empty()) return std::nullopt;
    return f;
  };
  return c;
}

InteractiveCase fresh_start_case() {
  InteractiveCase c;
  c.name = "protocol/session/hello_not_needed";
  c.needs = {Capability::Filter};
  c.run = [](Session& session, const std::set<Capability>&) -> std::optional<Finding> {
    // A filter of one bit answers true for every item once it holds one: an
    // implementation that keeps an exact set instead shows it at once.
    const std::vector<std::string> requests = {
        "new hn 1 1",          "insert hn 78", "contains hn 79", "contains hn 636174",
        "positions hn 636174", "info hn",      "count_ones hn",  "drop hn"};
    if (auto fault = session.restart(Session::Why::Fresh)) return Finding{fault->detail, fault, {}};
    Judge limits;
    std::vector<Request> batch;
    std::string transcript;
    for (const auto& line : requests) {
      const std::string pattern = limits.expect(line);
      batch.push_back({line, limits.longest_answer() + line.size() + kAnswerSlack});
      transcript += "> " + line + "\n< " + pattern + "\n";
      limits.judge(limits.oracle_answer());
    }
    const Answers answers = session.exchange(batch, Pace::Pipelined);
    Judge judge;
    const std::string fresh = "in a fresh process, sent no hello first: ";
    for (std::size_t i = 0; i < answers.lines.size(); ++i) {
      judge.expect(requests[i]);
      const Judgement j = judge.judge(answers.lines[i]);
      if (j.verdict == Verdict::Mismatch) {
        return Finding{
            fresh + "'" + requests[i] + "' was answered " + readable(answers.lines[i], 80) + ": " + j.reason,
            {},
            transcript};
      }
    }
    if (answers.fault) return Finding{fresh + answers.fault->detail, answers.fault, transcript};
    return std::nullopt;
  };
  return c;
}

std::string rule_of(std::string_view case_name) {
  // Rows "| RULE | SOURCE | `case`, `group/*`, ... |", in docs/check.md's order.
  std::size_t at = 0;
  while ((at = kCheckRulesTable.find("\n| ", at)) != std::string_view::npos) {
    const std::size_t end = kCheckRulesTable.find('\n', at + 1);
    const std::string_view row = kCheckRulesTable.substr(at + 3, end - at - 3);
    at = end;
    const std::size_t first = row.find(" | ");
    const std::size_t cases = first == std::string_view::npos ? first : row.find(" | ", first + 3);
    if (cases == std::string_view::npos) continue;
    const std::string rule(row.substr(0, first));
    for (std::size_t tick = row.find('`', cases); tick != std::string_view::npos;
         tick = row.find('`', tick + 1)) {
      const std::size_t close = row.find('`', tick + 1);
      if (close == std::string_view::npos) break;
      const std::string pattern(row.substr(tick + 1, close - tick - 1));
      if (::fnmatch(pattern.c_str(), std::string(case_name).c_str(), 0) == 0) return rule;
      tick = close;
    }
  }
  return "";
}

std::vector<Case> deterministic_cases() {
  std::vector<Case> out = rule_cases();
  for (auto& c : corpus_cases()) out.push_back(std::move(c));
  for (auto& c : out) {
    if (c.about.empty()) c.about = rule_of(c.name);
  }
  return out;
}

}  // namespace tlbf::conformance
