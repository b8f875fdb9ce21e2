#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace synctax {

// A file as stat() saw it: whether it changed since, or was replaced (another inode).
struct FileStamp {
    bool exists = false;
    uint64_t size = 0;
    int64_t mtimeNs = 0;
    uint64_t inode = 0;

    static FileStamp of(const std::string& path); // not there, or not a regular file: !exists
    bool operator==(const FileStamp& o) const
    {
        return exists == o.exists && size == o.size && mtimeNs == o.mtimeNs && inode == o.inode;
    }
    bool operator!=(const FileStamp& o) const { return !(*this == o); }
};

// An append-only file read as lines while another process writes it: how far it was read, and
// what was read but not handed out yet (complete lines held back by maxLines, then a line still
// without its newline). Each complete line is handed out once, in order.
class LineTail {
public:
    using Sink = std::function<void(const std::string& line, int64_t number)>;
    struct Read {
        bool more = false; // complete lines wait beyond maxLines
        bool restarted = false; // the file shrank or was replaced: read again from its start
    };

    LineTail(std::string path, std::string name, size_t maxLineBytes);
    // The complete lines written since the last call (at most maxLines) to `sink`, numbered from 1.
    // `stamp` is the file's, taken by the caller (so that it reads no further than it saw). What is
    // off (a line over maxLineBytes, a restart) goes to `notes`, located as name:line:column.
    Read read(const FileStamp& stamp, size_t maxLines, const Sink& sink, std::vector<std::string>& notes);
    void reset();

    const std::string& name() const { return m_name; }
    uint64_t offset() const { return m_offset; } // bytes read
    bool cutOff() const { return !m_pending.empty() && !m_skipping; } // the last bytes read end mid-line

private:
    bool consume(size_t maxLines, size_t& done, const Sink& sink, std::vector<std::string>& notes);

    std::string m_path;
    std::string m_name;
    size_t m_maxLineBytes;
    uint64_t m_offset = 0;
    uint64_t m_inode = 0;
    std::string m_pending;
    int64_t m_line = 0; // lines handed out (or skipped)
    bool m_skipping = false; // inside a line longer than maxLineBytes, up to its newline
};

} // namespace synctax
