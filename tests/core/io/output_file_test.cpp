// All-or-nothing writes: the previous file survives a failure, no temporary is left behind, and
// what is in the way (a directory, a symlink) is treated as rename(2) treats it.
#include "poslab/io/output_file.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io_test_fixture.hpp"

namespace poslab {
namespace {

class OutputFileTest : public IoTest {};

Status writeText(const std::string& path, const char* text) {
    return writeFileAtomically(path, [text](std::FILE* file) {
        std::fputs(text, file);
        return success();
    });
}

TEST_F(OutputFileTest, FailedWriteLeavesPreviousFileAndNoTemporary) {
    const std::string path = (dir / "keep.csv").string();
    { std::ofstream(path) << "previous\n"; }
    Status status = writeFileAtomically(path, [](std::FILE* file) {
        std::fputs("partial", file);
        return Status(Error{"simulated failure"});
    });
    EXPECT_FALSE(status.ok());
    EXPECT_EQ(readFile(path), "previous\n");
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
}

TEST_F(OutputFileTest, ReplacingAFileLeavesOnlyTheNewContent) {
    const std::string path = (dir / "table.csv").string();
    { std::ofstream(path) << "previous, a longer line than the new one\n"; }
    ASSERT_TRUE(writeText(path, "new\n").ok());
    EXPECT_EQ(readFile(path), "new\n");
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);  // no temporary left
    ASSERT_TRUE(writeText(path, "newer\n").ok());
    EXPECT_EQ(readFile(path), "newer\n");
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
}

TEST_F(OutputFileTest, ADirectoryInTheWayIsAnErrorAndStaysUntouched) {
    const std::filesystem::path target = dir / "out.csv";
    std::filesystem::create_directory(target);
    { std::ofstream(target / "inside.txt") << "keep\n"; }
    EXPECT_FALSE(writeText(target.string(), "x\n").ok());
    ASSERT_TRUE(std::filesystem::is_directory(target));
    EXPECT_EQ(readFile((target / "inside.txt").string()), "keep\n");
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
}

TEST_F(OutputFileTest, ASymlinkIsReplacedNotFollowed) {
    // As rename(2) does: the link itself becomes the new file; what it pointed to is kept.
    const std::string pointee = (dir / "pointee.csv").string();
    const std::string link = (dir / "link.csv").string();
    { std::ofstream(pointee) << "pointee\n"; }
    std::filesystem::create_symlink(pointee, link);
    ASSERT_TRUE(writeText(link, "new\n").ok());
    EXPECT_FALSE(std::filesystem::is_symlink(link));
    EXPECT_EQ(readFile(link), "new\n");
    EXPECT_EQ(readFile(pointee), "pointee\n");
}

TEST_F(OutputFileTest, ANewFileAppearsWithItsContentAndNothingElse) {
    const std::string path = (dir / "fresh.npy").string();
    ASSERT_TRUE(writeText(path, "content\n").ok());
    EXPECT_EQ(readFile(path), "content\n");
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);
}

TEST_F(OutputFileTest, ErrorsNameThePath) {
    const std::string path = (dir / "missing" / "x.csv").string();
    const Status status = writeText(path, "x\n");
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.error().message.find(path), std::string::npos) << status.error().message;
    EXPECT_EQ(status.error().message.find('\n'), std::string::npos);  // one line
    EXPECT_FALSE(std::filesystem::exists(dir / "missing"));
}

TEST(FileExtensionTest, LowerCaseWithTheDot) {
    EXPECT_EQ(fileExtension("table.csv"), ".csv");
    EXPECT_EQ(fileExtension("out/Table.NPY"), ".npy");
    EXPECT_EQ(fileExtension("a.b.c.Png"), ".png");
    EXPECT_EQ(fileExtension("noextension"), "");
    EXPECT_EQ(fileExtension("dir.d/noextension"), "");  // a dot in a folder name is not one
    EXPECT_EQ(fileExtension("trailing."), ".");
}

namespace fs = std::filesystem;


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

TEST_F(OutputFileTest, ADeviceIsWrittenInPlaceNeverReplaced) {
    struct stat before {};
    if (::stat("/dev/full", &before) != 0 || !S_ISCHR(before.st_mode))
        GTEST_SKIP() << "no /dev/full";
    // Before: the temporary was renamed over /dev/full (as root: the device node was replaced).
    const Status full = writeFileAtomically(
        "/dev/full", [](std::FILE* f) { return writeText(f, "bytes the device refuses\n"); });
    ASSERT_FALSE(full.ok());
    EXPECT_EQ(full.error().message, "cannot write '/dev/full': No space left on device");
    struct stat after {};
    ASSERT_EQ(::stat("/dev/full", &after), 0);
    EXPECT_TRUE(S_ISCHR(after.st_mode));
    EXPECT_EQ(after.st_rdev, before.st_rdev);
    EXPECT_TRUE(writeFileAtomically("/dev/null", [](std::FILE* f) { return writeText(f, "x"); }));
    struct stat null {};
    ASSERT_EQ(::stat("/dev/null", &null), 0);
    EXPECT_TRUE(S_ISCHR(null.st_mode));
}

TEST_F(OutputFileTest, AFifoWithoutAReaderFailsAtOnce) {
    const std::string path = (dir / "pipe").string();
    ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
    const Status status = writeFileAtomically(path, [](std::FILE* f) { return writeText(f, "x"); });
    ASSERT_FALSE(status.ok());  // ENXIO, not a write blocked forever
    EXPECT_NE(status.error().message.find("pipe'"), std::string::npos) << status.error().message;
    struct stat info {};
    ASSERT_EQ(::stat(path.c_str(), &info), 0);
    EXPECT_TRUE(S_ISFIFO(info.st_mode));
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

namespace poslab {
namespace {

class ReplacedFileTest : public IoTest {};

Status writeLine(const std::string& path, const char* text) {
    return writeFileAtomically(path, [text](std::FILE* file) {
        std::fputs(text, file);
        return success();
    });
}

TEST_F(ReplacedFileTest, SetuidSetgidAndStickyBitsAreNeverCarriedOver) {
    // Failed before: the bits were copied & 07777, so a 6755 file stayed setuid under the writer.
    const std::string path = (dir / "tool").string();
    ASSERT_TRUE(writeLine(path, "old\n").ok());
    ASSERT_EQ(::chmod(path.c_str(), 07755), 0);
    ASSERT_TRUE(writeLine(path, "new\n").ok());
    struct stat info {};
    ASSERT_EQ(::stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 07777, 0755u);  // rwx kept, s/s/t dropped
}

TEST_F(ReplacedFileTest, ASymlinkBecomesAFreshFileWithoutItsTargetsBits) {
    // Decided and documented (output_file.hpp): the link is replaced, its target untouched, and
    // the new file takes the default mode rather than the target's.
    const std::string target = (dir / "target.csv").string();
    const std::string link = (dir / "link.csv").string();
    ASSERT_TRUE(writeLine(target, "target\n").ok());
    ASSERT_EQ(::chmod(target.c_str(), 0600), 0);
    std::filesystem::create_symlink(target, link);
    const mode_t mask = ::umask(022);
    ASSERT_TRUE(writeLine(link, "new\n").ok());
    ::umask(mask);
    struct stat info {};
    ASSERT_EQ(::lstat(link.c_str(), &info), 0);
    EXPECT_TRUE(S_ISREG(info.st_mode));
    EXPECT_EQ(info.st_mode & 07777, 0644u);
    EXPECT_EQ(readFile(target), "target\n");
    ASSERT_EQ(::stat(target.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 07777, 0600u);
}

TEST_F(ReplacedFileTest, TheNewFileBelongsToTheWriter) {
    const std::string path = (dir / "owned.csv").string();
    ASSERT_TRUE(writeLine(path, "old\n").ok());
    if (::geteuid() != 0) GTEST_SKIP() << "changing a file's owner needs root";
    ASSERT_EQ(::chown(path.c_str(), 65534, 65534), 0);  // nobody
    ASSERT_TRUE(writeLine(path, "new\n").ok());
    struct stat info {};
    ASSERT_EQ(::stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_uid, ::geteuid());
    EXPECT_EQ(info.st_gid, ::getegid());
}

TEST_F(ReplacedFileTest, TemporariesOfKilledRunsAreRemovedByTheNextWrite) {
    // A run killed between naming its temporary and the rename (or one without O_TMPFILE and
    // /proc) leaves ".NAME.poslab-tmp.PID.N"; the next write of NAME removes it once PID is gone.
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    ASSERT_GT(child, 0);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    const std::string dead =
        (dir / (".out.npy.poslab-tmp." + std::to_string(child) + ".7")).string();
    const std::string live =
        (dir / (".out.npy.poslab-tmp." + std::to_string(::getpid()) + ".8")).string();
    const std::string other =
        (dir / (".other.npy.poslab-tmp." + std::to_string(child) + ".9")).string();
    for (const std::string& path : {dead, live, other}) std::ofstream(path) << "partial";
    ASSERT_TRUE(writeLine((dir / "out.npy").string(), "done\n").ok());
    EXPECT_FALSE(std::filesystem::exists(dead));
    EXPECT_TRUE(std::filesystem::exists(live));   // its process may still be writing
    EXPECT_TRUE(std::filesystem::exists(other));  // another file's: left for its own next write
    EXPECT_EQ(readFile((dir / "out.npy").string()), "done\n");
}

}  // namespace
}  // namespace poslab
