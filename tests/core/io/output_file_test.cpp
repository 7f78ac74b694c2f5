#include "poslab/io/output_file.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

namespace poslab {
namespace {

namespace fs = std::filesystem;

class OutputFileTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir = fs::temp_directory_path() / ("poslab_output_file_test_" + std::to_string(::getpid()));
        fs::create_directories(dir);
    }
    void TearDown() override { fs::remove_all(dir); }
    fs::path dir;
};

Status writeText(std::FILE* file, const std::string& text) {
    std::fputs(text.c_str(), file);
    return success();
}

TEST_F(OutputFileTest, ReplacingAFileKeepsItsPermissionBits) {
    // Failed before: the replacement was a new file, 0666 & ~umask (0644 under umask 022).
    const std::string path = (dir / "shared.csv").string();
    ASSERT_TRUE(writeFileAtomically(path, [](std::FILE* f) { return writeText(f, "old\n"); }));
    ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
    ASSERT_TRUE(writeFileAtomically(path, [](std::FILE* f) { return writeText(f, "new\n"); }));
    struct stat info {};
    ASSERT_EQ(::stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 07777, 0640u);
    EXPECT_EQ(fs::file_size(path), 4u);
    // Nothing else is left in the folder.
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
}

TEST_F(OutputFileTest, AFullDeviceIsReportedWithTheFileAndTheReason) {
    // /dev/full fails every write with ENOSPC, as a full filesystem does.
    std::FILE* full = std::fopen("/dev/full", "wb");
    if (full == nullptr) GTEST_SKIP() << "no /dev/full";
    const std::string big(1 << 16, 'x');  // larger than stdio's buffer: fwrite itself fails
    const Status small = writeToStream(full, "/dev/full", [](std::FILE* f) {
        return writeText(f, "a few bytes that stay in the buffer until the flush\n");
    });
    ASSERT_FALSE(small.ok());
    EXPECT_EQ(small.error().message, "cannot write '/dev/full': No space left on device");
    std::clearerr(full);
    const Status large = writeToStream(full, "/dev/full", [&](std::FILE* f) -> Status {
        if (std::fwrite(big.data(), 1, big.size(), f) != big.size()) return Error{"write failed"};
        return success();
    });
    ASSERT_FALSE(large.ok());
    // Failed before: the writer's own "write failed" named neither the file nor the reason.
    EXPECT_EQ(large.error().message, "cannot write '/dev/full': No space left on device");
    std::fclose(full);
}

TEST_F(OutputFileTest, AFailedWriteLeavesNothingBehind) {
    const std::string path = (dir / "out.npy").string();
    const Status status =
        writeFileAtomically(path, [](std::FILE*) -> Status { return Error{"no data"}; });
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().message, "no data");
    EXPECT_TRUE(fs::is_empty(dir));
}

TEST_F(OutputFileTest, PathsInMessagesAreEscaped) {
    const std::string path = (dir / "missing\x1b[31m" / "a.csv").string();
    const Status status = writeFileAtomically(path, [](std::FILE* f) { return writeText(f, "x"); });
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().message.find('\x1b'), std::string::npos) << status.error().message;
    EXPECT_NE(status.error().message.find("missing\\x1b[31m/a.csv': No such file or directory"),
              std::string::npos)
        << status.error().message;
}

}  // namespace
}  // namespace poslab
