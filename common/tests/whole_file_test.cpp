#include "tlbf/whole_file.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace tlbf {
namespace {

namespace fs = std::filesystem;

class WholeFile : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("tlbf_whole_file_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }

  fs::path dir_;
};

TEST_F(WholeFile, ReadsARegularFileWhole) {
  const std::string text = std::string(200000, 'x') + "end";
  const auto read = read_whole_file(write("f", text), 1 << 20, "test file");
  ASSERT_TRUE(read.ok()) << read.why();
  EXPECT_EQ(read.value(), text);
  const auto empty = read_whole_file(write("e", ""), 1 << 20, "test file");
  ASSERT_TRUE(empty.ok()) << empty.why();
  EXPECT_EQ(empty.value(), "");
}

TEST_F(WholeFile, RefusesAFileOverTheLimitAndTakesOneAtIt) {
  const std::string path = write("f", std::string(1025, 'x'));
  const auto over = read_whole_file(path, 1024, "test file");
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.why(), "cannot read " + path + ": longer than 1 KiB, more than any test file could be");
  EXPECT_TRUE(read_whole_file(write("g", std::string(1024, 'x')), 1024, "test file").ok());
}

// Each refused from fstat, before a read: none of these may block or run on.
TEST_F(WholeFile, RefusesWhatIsNotARegularFileAtOnce) {
  const std::string fifo = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string socket_path = (dir_ / "sock").string();
  const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, socket_path.c_str(), sizeof address.sun_path - 1);
  ASSERT_EQ(::bind(sock, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  const auto start = std::chrono::steady_clock::now();
  for (const auto& [path, words] : std::vector<std::pair<std::string, std::string>>{
           {dir_.string(), "it is a directory"},
           {fifo, "it is a FIFO (a named pipe), not a regular file"},
           {socket_path, "it is a socket, not a regular file"},
           {"/dev/zero", "it is a character device, not a regular file"},
           {"/dev/null", "it is a character device, not a regular file"}}) {
    const auto read = read_whole_file(path, 1 << 20, "test file");
    ASSERT_FALSE(read.ok()) << path;
    EXPECT_EQ(read.why(), "cannot read " + path + ": " + words);
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  ::close(sock);
}

TEST_F(WholeFile, NamesAFileItCannotOpen) {
  const std::string path = (dir_ / "absent").string();
  const auto read = read_whole_file(path, 1 << 20, "test file");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.why(), "cannot open " + path + ": No such file or directory");
}

// A file in /proc says it holds 0 bytes: the bound holds as it is read, and
// what it holds under the bound is read whole.
TEST_F(WholeFile, BoundsAFileThatLiesAboutItsSize) {
  const auto small = read_whole_file("/proc/self/status", 1 << 20, "test file");
  ASSERT_TRUE(small.ok()) << small.why();
  EXPECT_NE(small.value().find("Name:"), std::string::npos);
  const auto bounded = read_whole_file("/proc/self/status", 16, "test file");
  ASSERT_FALSE(bounded.ok());
  EXPECT_EQ(bounded.why(),
            "cannot read /proc/self/status: longer than 16 bytes, more than any test file could be");
}

// A read error is a Failure with the system's words, not an exception.
TEST_F(WholeFile, SaysWhyAReadFails) {
  const auto read = read_whole_file("/proc/self/mem", 1 << 20, "test file");
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.why(), "cannot read /proc/self/mem: Input/output error");
}

TEST(SizeInWords, SaysALimitAsPeopleDo) {
  EXPECT_EQ(size_in_words(std::size_t{256} << 20), "256 MiB");
  EXPECT_EQ(size_in_words(64 << 10), "64 KiB");
  EXPECT_EQ(size_in_words(1000), "1000 bytes");
}

}  // namespace
}  // namespace tlbf
