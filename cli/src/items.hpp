// Items as the CLI reads them: one a line, as text or as hex (docs/cli.md, "Items").
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <istream>
#include <span>
#include <string>
#include <vector>

#include "tlbf/hex.hpp"
#include "tlbf/lines.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::cli {

// Whether reading `in` failed, not just ended. std::cin reads through stdio
// (synchronised), which hands a read error (EISDIR, EIO) to the stream as an
// end of file; stdio's error flag keeps it.
inline bool read_failed(std::istream& in) {
  return in.bad() || (&in == &std::cin && std::ferror(stdin) != 0);
}

// Calls on_item(std::span<const std::uint8_t>) for every line of `in`, decoded
// from hex when `hex` is set. Stops at the first line that is not hex, or when
// reading fails, with a Failure naming the source and the line ("ITEMS line 3:
// not hex ..."); read_failed(in) then tells the two apart. The items before
// that line have been handed over: the caller says so, or undoes them.
template <typename OnItem>
Outcome<Done> for_each_item(std::istream& in, bool hex, const std::string& source, OnItem&& on_item) {
  std::string line;
  std::uint64_t number = 0;
  while (read_line(in, line)) {
    ++number;
    if (!hex) {
      on_item(std::span(reinterpret_cast<const std::uint8_t*>(line.data()), line.size()));
      continue;
    }
    const auto decoded = from_hex(line);
    if (!decoded) {
      return failure(source + " line " + std::to_string(number) + ": not hex (" +
                     std::to_string(line.size()) + " characters; want an even number of 0-9, a-f, A-F)");
    }
    on_item(std::span<const std::uint8_t>(*decoded));
  }
  if (read_failed(in)) return failure(source + ": read error after line " + std::to_string(number));
  return done();
}

// Items gathered into batches for Bloom's batched calls: on_batch receives a
// span of ByteView for up to kBatchItems items at a time, in input order; the
// views are valid during the call only. Returns as for_each_item; a batch
// read before a bad line is still handed over.
inline constexpr std::size_t kBatchItems = 4096;

template <typename OnBatch>
Outcome<Done> for_each_batch(std::istream& in, bool hex, const std::string& source, OnBatch&& on_batch) {
  std::vector<std::span<const std::uint8_t>> views;
  auto hand_over = [&] {
    if (!views.empty()) on_batch(std::span<const std::span<const std::uint8_t>>(views));
    views.clear();
  };
  if (hex) {
    // Decoded items need storage of their own: the batch's bytes, end to end.
    std::string arena;
    std::vector<std::size_t> ends;
    auto flush = [&] {
      std::size_t start = 0;
      for (const std::size_t end : ends) {
        views.emplace_back(reinterpret_cast<const std::uint8_t*>(arena.data()) + start, end - start);
        start = end;
      }
      hand_over();
      arena.clear();
      ends.clear();
    };
    auto read = for_each_item(in, true, source, [&](std::span<const std::uint8_t> item) {
      arena.append(reinterpret_cast<const char*>(item.data()), item.size());
      ends.push_back(arena.size());
      if (ends.size() == kBatchItems) flush();
    });
    flush();
    return read;
  }
  // Text items are the lines themselves: read in large chunks and handed over
  // as views into the chunk, with no copy per line. The lines are those of
  // read_line: split at "\n", a "\r" before it dropped, a last line without
  // "\n" still a line.
  std::vector<char> buffer(std::size_t{1} << 20);
  std::size_t kept = 0;  // the start of a line that the next chunk finishes
  for (;;) {
    if (kept == buffer.size()) buffer.resize(buffer.size() * 2);  // a line longer than the buffer
    in.read(buffer.data() + kept, static_cast<std::streamsize>(buffer.size() - kept));
    const std::size_t filled = kept + static_cast<std::size_t>(in.gcount());
    const bool finished = !in;
    auto add = [&](std::size_t start, std::size_t end) {
      if (end > start && buffer[end - 1] == '\r') --end;
      views.emplace_back(reinterpret_cast<const std::uint8_t*>(buffer.data()) + start, end - start);
      if (views.size() == kBatchItems) hand_over();
    };
    std::size_t start = 0;
    while (const void* found = std::memchr(buffer.data() + start, '\n', filled - start)) {
      const auto end = static_cast<std::size_t>(static_cast<const char*>(found) - buffer.data());
      add(start, end);
      start = end + 1;
    }
    if (finished && start < filled) {
      add(start, filled);
      start = filled;
    }
    hand_over();  // before the views' bytes move
    kept = filled - start;
    std::memmove(buffer.data(), buffer.data() + start, kept);
    if (finished) break;
  }
  if (read_failed(in)) return failure(source + ": read error");
  return done();
}

// Throughput, for --stats, and a progress line on standard error when it is
// a terminal (redrawn at most every half second, erased at the end).
class Throughput {
 public:
  Throughput(const char* command, bool show_progress) : command_(command), progress_(show_progress) {}

  void add(std::size_t items) {
    items_ += items;
    if (!progress_) return;
    const auto now = Clock::now();
    if (now - last_drawn_ < std::chrono::milliseconds(500)) return;
    last_drawn_ = now;
    std::fprintf(stderr, "\r%s: %llu items, %.0f items/s   ", command_,
                 static_cast<unsigned long long>(items_), rate());
    drawn_ = true;
  }

  // Erases the progress line, and with `stats` prints the totals.
  void finish(bool stats) {
    if (drawn_) std::fprintf(stderr, "\r\033[K");
    if (stats) {
      std::fprintf(stderr, "%s: %llu items in %.3f s, %.0f items/s\n", command_,
                   static_cast<unsigned long long>(items_), seconds(), rate());
    }
  }

 private:
  using Clock = std::chrono::steady_clock;
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  double rate() const { return seconds() > 0 ? static_cast<double>(items_) / seconds() : 0.0; }

  const char* command_;
  bool progress_;
  bool drawn_ = false;
  std::uint64_t items_ = 0;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_drawn_ = start_;
};

}  // namespace tlbf::cli
