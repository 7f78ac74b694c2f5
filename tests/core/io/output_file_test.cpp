// All-or-nothing writes: the previous file survives a failure, no temporary is left behind, and
// what is in the way (a directory, a symlink) is treated as rename(2) treats it.
#include "poslab/io/output_file.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

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

}  // namespace
}  // namespace poslab
