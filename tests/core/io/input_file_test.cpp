#include "poslab/io/input_file.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include "poslab/io/hf_config.hpp"
#include "poslab/io/npy_reader.hpp"

namespace poslab {
namespace {

namespace fs = std::filesystem;

class InputFileTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir = fs::temp_directory_path() / ("poslab_input_file_test_" + std::to_string(::getpid()));
        fs::create_directories(dir);
        fifo = (dir / "pipe.npy").string();
        ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    }
    void TearDown() override { fs::remove_all(dir); }
    fs::path dir;
    std::string fifo;
};

// Runs `read` on another thread; a reader blocked on the FIFO would never return, so the test
// gives up after 2 s (and ends the run: the blocked thread cannot be joined).
template <typename Read>
std::string errorWithin2s(Read read) {
    auto done = std::async(std::launch::async, read);
    if (done.wait_for(std::chrono::seconds(2)) != std::future_status::ready) {
        ADD_FAILURE() << "the reader blocked on a FIFO";
        std::_Exit(1);
    }
    return done.get();
}

TEST_F(InputFileTest, AFifoIsRefusedAtOnce) {
    // Failed before (hung): fopen and ifstream wait for a writer to open the FIFO.
    const std::string npy = errorWithin2s([&] {
        auto table = loadNpy(fifo);
        return table ? std::string() : table.error().message;
    });
    EXPECT_EQ(npy, fifo + ": not a regular file (a FIFO)");
    const std::string config = errorWithin2s([&] {
        auto loaded = loadHfConfig(fifo);
        return loaded ? std::string() : loaded.error().message;
    });
    EXPECT_EQ(config, fifo + ": not a regular file (a FIFO)");
}

TEST_F(InputFileTest, DevicesAndDirectoriesAreRefused) {
    auto device = InputFile::open("/dev/zero");  // would read forever
    ASSERT_FALSE(device.ok());
    EXPECT_EQ(device.error().message, "/dev/zero: not a regular file (a character device)");
    auto directory = InputFile::open(dir.string());
    ASSERT_FALSE(directory.ok());
    EXPECT_EQ(directory.error().message, dir.string() + ": not a regular file (a directory)");
}

TEST_F(InputFileTest, RegularFilesOpenWithTheirSize) {
    const std::string path = (dir / "a.txt").string();
    std::FILE* out = std::fopen(path.c_str(), "wb");
    ASSERT_NE(out, nullptr);
    std::fputs("hello", out);
    std::fclose(out);
    auto in = InputFile::open(path);
    ASSERT_TRUE(in.ok()) << in.error().message;
    EXPECT_EQ(in->size(), 5u);
    char buffer[8] = {};
    EXPECT_EQ(std::fread(buffer, 1, sizeof buffer, in->stream()), 5u);
    EXPECT_EQ(std::string(buffer), "hello");
}

TEST_F(InputFileTest, MissingFilesNameThePathEscaped) {
    auto missing = InputFile::open((dir / "no\x1b[2Jthing").string());
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().message,
              dir.string() + "/no\\x1b[2Jthing: cannot open the file (No such file or directory)");
}

}  // namespace
}  // namespace poslab
