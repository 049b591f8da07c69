#include "flags.hpp"

namespace tlbf::vectors {

namespace {

// FlagNote without its std::strings, so that the table below is constant
// data, there before any static constructor could ask for flag_notes().
struct NoteText {
  const char* bug_type;
  const char* description;
  bool lenient = false;
};

struct NamedNote {
  const char* name;
  NoteText note;
};

constexpr NamedNote kNotes[] = {
    // ordinary cases
    {"WorkedExample",
     {"BASIC",
      "The worked example of the specification's section 3 (with_rate(4, 0.1), cat and dog), values "
      "checked by hand."}},
    {"PublishedValue",
     {"BASIC",
      "A value published with the algorithm itself: FNV-1a 64 test vectors, or the first output of "
      "SplitMix64 seeded with 0."}},
    {"SizingTable", {"BASIC", "A row of the sizing table in docs/format.md, section 7."}},
    {"Typical", {"BASIC", "An ordinary case with nothing special about it."}},
    // items
    {"EmptyItem",
     {"EDGE_CASE", "The empty byte string is an item like any other: FNV-1a of it is the offset basis."}},
    {"SingleByte", {"EDGE_CASE", "An item of one byte; together the cases cover all 256 values."}},
    {"AllByteValues", {"EDGE_CASE", "An item, or a set of items, containing every byte value 0 to 255."}},
    {"NotUtf8", {"EDGE_CASE", "Bytes that are not valid UTF-8: implementations must hash bytes, not text."}},
    {"LongItem", {"EDGE_CASE", "An item of 1 KiB or more."}},
    {"MixFixedPoint", {"EDGE_CASE", "mix64(0) = 0: the finalizer has no increment step."}},
    {"AllOnes", {"EDGE_CASE", "The input with every bit set."}},
    // sizing
    {"CeilOfM",
     {"EDGE_CASE",
      "The ideal m is not an integer: m is its ceiling, and its floor gives a different answer."}},
    {"RoundingOfK",
     {"EDGE_CASE",
      "The ideal k has a fraction of one half or more: k rounds up, and truncation gives a different "
      "answer."}},
    {"KAtLeastOne", {"EDGE_CASE", "The ideal k rounds to 0, and k is 1."}},
    {"TinyN", {"EDGE_CASE", "A tiny n for which rounding m up changes k."}},
    {"LowP", {"EDGE_CASE", "A false-positive rate of 1e-6 or below."}},
    {"SmallestP",
     {"EDGE_CASE",
      "p is the smallest positive double, 5e-324: the most bits and hashes with_rate can ask for per item "
      "(m = 1550, k = 1074 for n = 1)."}},
    {"IdealMIsInteger",
     {"EDGE_CASE",
      "The documented expression gives an ideal m that is exactly an integer, which is then m "
      "(docs/format.md, section 7)."}},
    {"LogLastBit",
     {"PLATFORM",
      "m depends on the last bit of log(p): with ln p one unit in the last place off the correctly rounded "
      "ln p (not off a platform's log), m would be one of `alternatives`. The expected m is what a correctly "
      "rounded log (and glibc's) gives; an "
      "implementation on a platform whose log differs there may answer an alternative, so the result is "
      "acceptable.",
      true}},
    {"LogFormula",
     {"EDGE_CASE",
      "ln p computed another way (log2(p) * LN2, log10(p) * LN10, log1p(-(1 - p))) is within one unit in "
      "the last place of log(p) almost always, but two units off here, and the m it gives is neither `m` nor "
      "one of `alternatives`: ln p must be the math library's natural logarithm of p (docs/format.md, "
      "section 7)."}},
    {"OutOfDomain",
     {"DECISION",
      "Inputs outside what a filter can use (n = 0, p outside (0, 1), NaN): docs/format.md makes optimal_m "
      "and optimal_k total, converting like Rust's `as` casts. The course specification leaves these "
      "undefined, so another answer is acceptable.",
      true}},
    {"BadN", {"MALFORMED", "n = 0: with_rate needs at least one item. BadParams."}},
    {"BadP", {"MALFORMED", "p outside the open interval (0, 1), infinities included. BadParams."}},
    {"NaN", {"MALFORMED", "p is NaN, which every comparison fails. BadParams."}},
    {"TooManyBits",
     {"MALFORMED", "The parameters need more than 2^40 bits. BadParams, before anything is allocated."}},
    {"PredictedRate",
     {"BASIC",
      "predicted_fp_rate: compare with a relative tolerance of 1e-12, since exp and pow are not correctly "
      "rounded on every platform."}},
    // positions and filters
    {"WrapAround",
     {"EDGE_CASE",
      "h1 + i*h2 exceeds 2^64 for some probe, and reducing the unwrapped sum modulo m would give a "
      "different position: the sum must wrap first."}},
    {"LargeM", {"EDGE_CASE", "m of 2^32 or more: positions need 64-bit arithmetic throughout."}},
    {"MaxBits", {"EDGE_CASE", "m = 2^40, the largest filter."}},
    {"PowerOfTwoM",
     {"EDGE_CASE", "m is a power of two: an even h2 would make probes repeat, so h2 must be forced odd."}},
    {"EvenMix",
     {"EDGE_CASE", "mix64(h1) is even for an item here, so h2 = mix64(h1) | 1 differs from mix64(h1)."}},
    {"OneBit", {"EDGE_CASE", "m = 1: every probe is bit 0."}},
    {"OneHash", {"EDGE_CASE", "k = 1."}},
    {"LargeK", {"EDGE_CASE", "k above 64."}},
    {"OddM", {"EDGE_CASE", "m is not a multiple of 8, so the last byte has padding bits, which stay zero."}},
    {"FalsePositive",
     {"EDGE_CASE",
      "A probe for an item never inserted answers present: a false positive the format makes certain."}},
    {"Dense", {"EDGE_CASE", "Many more items than the filter was sized for: most bits set."}},
    {"BadM", {"MALFORMED", "m = 0 or above 2^40. BadParams."}},
    {"BadK", {"MALFORMED", "k = 0. BadParams."}},
    {"StrictKBound",
     {"DECISION",
      "k above 65536 (MAX_K). docs/format.md refuses it, so that a forged header cannot make each query "
      "take billions of probes; the course specification only asks k >= 1, so accepting it is acceptable.",
      true}},
    // union
    {"CountsAdd", {"BASIC", "Union adds the two n_inserted counts."}},
    {"OrNotAnd", {"EDGE_CASE", "Bits set in one operand only: OR keeps them, AND would not."}},
    {"MismatchM", {"MALFORMED", "The operands differ in m. Mismatch."}},
    {"MismatchK", {"MALFORMED", "The operands differ in k. Mismatch."}},
    {"CountSaturates",
     {"DECISION",
      "The counts add past 2^64 - 1 and docs/format.md saturates them; the course specification is silent "
      "(wrapping and refusing are both plausible), so the result is acceptable.",
      true}},
    // from_bytes
    {"EmptyFilter", {"EDGE_CASE", "No bit set and a count of zero."}},
    {"AnyCount",
     {"DECISION", "n_inserted is not checked against the bits: any u64 loads (docs/format.md, section 10)."}},
    {"Short", {"MALFORMED", "Fewer than 32 bytes: not even a header. Format."}},
    {"BadMagic", {"MALFORMED", "The first four bytes are not \"TLBF\". Format."}},
    {"BadVersion", {"MALFORMED", "The version is not 1. Format."}},
    {"ZeroM", {"MALFORMED", "m = 0 in the header. Format."}},
    {"MTooLarge", {"MALFORMED", "m above 2^40 in the header. Format."}},
    {"ZeroK", {"MALFORMED", "k = 0 in the header. Format."}},
    {"BadReserved", {"MALFORMED", "The reserved field is not 0. Format."}},
    {"Truncated", {"MALFORMED", "The bit array is shorter than ceil(m/8) bytes. Format."}},
    {"Extended", {"MALFORMED", "Bytes follow the bit array. Format."}},
    {"InconsistentLength",
     {"MALFORMED", "The header's m asks for a different number of bytes than follow it. Format."}},
    {"ClaimsMaxBits",
     {"MALFORMED",
      "A short file claims m = 2^40: it must be refused by its length, before 128 GiB are allocated. "
      "Format."}},
    {"PaddingBitsSet",
     {"MALFORMED",
      "A bit beyond m in the last byte is set: not what to_bytes writes (docs/format.md, section 4). "
      "Format."}},
};

}  // namespace

const std::map<std::string, FlagNote>& flag_notes() {
  static const std::map<std::string, FlagNote> notes = [] {
    std::map<std::string, FlagNote> out;
    for (const auto& [name, note] : kNotes)
      out.emplace(name, FlagNote{note.bug_type, note.description, note.lenient});
    return out;
  }();
  return notes;
}

std::vector<std::string> lenient_flags() {
  std::vector<std::string> out;
  for (const auto& [name, note] : flag_notes()) {
    if (note.lenient) out.push_back(name);
  }
  return out;
}

}  // namespace tlbf::vectors
