#pragma once

#include "core/trace/kinetotrace.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace synctax {

class ByteStream;

// What the SAX pass counted besides the events it kept; the reader turns these into notes.
struct KinetoReadCounts {
    std::uint64_t traceEventsKeys = 0; // how many times the top level names traceEvents
    std::uint64_t distributedInfoKeys = 0;
    std::uint64_t gpuWithoutStream = 0; // GPU work without args.stream: cannot be placed, skipped
    std::uint64_t gpuDeviceFromPid = 0; // GPU work without args.device, placed on its pid
    std::uint64_t hostWithoutIds = 0; // host events whose pid or tid is missing or not a number
    std::uint64_t notFiniteElsewhere = 0; // NaN or Infinity outside ts, dur and the ids read
    std::uint64_t ignoredMetadata = 0; // top-level metadata of the wrong type
    std::uint64_t baseTimeOffset = 0; // where baseTimeNanoseconds was, for an overflow error
};

// RapidJSON SAX handler (numbers as text) for one Kineto trace: keeps the ph "X" events of the
// categories SyncTax analyses, the thread_name metadata and the top-level keys it knows, with the
// keys in any order; skips every other value without building it. A value it cannot read makes it
// return false with `error()` set; the reader reports that instead of RapidJSON's own error.
class KinetoHandler {
public:
    using Ch = char;
    using SizeType = unsigned;

    explicit KinetoHandler(const ByteStream& stream);

    bool Null();
    bool Bool(bool b);
    bool Int(int) { return true; } // never called: numbers come as text (kParseNumbersAsStringsFlag)
    bool Uint(unsigned) { return true; }
    bool Int64(std::int64_t) { return true; }
    bool Uint64(std::uint64_t) { return true; }
    bool Double(double) { return true; }
    bool RawNumber(const Ch* str, SizeType length, bool copy);
    bool String(const Ch* str, SizeType length, bool copy);
    bool StartObject();
    bool Key(const Ch* str, SizeType length, bool copy);
    bool EndObject(SizeType memberCount);
    bool StartArray();
    bool EndArray(SizeType elementCount);

    struct Error {
        std::uint64_t offset = 0;
        std::int64_t eventIndex = -1;
        std::string message;
    };
    const std::optional<Error>& error() const { return m_error; }
    bool sawTopLevelObject() const { return m_topDone; }
    bool insideEvents() const; // the parse is inside traceEvents now
    std::int64_t eventIndex() const; // of the event being read, or of the next one between two
    std::uint64_t eventsInFile() const { return m_eventsInFile; }

    KinetoTrace& trace() { return m_trace; } // events with ts not yet shifted by baseTimeNs
    const KinetoReadCounts& counts() const { return m_counts; }
    // The thread_name metadata events: (pid, tid) -> the name.
    const std::map<std::pair<std::int64_t, std::int64_t>, std::string>& threadNames() const { return m_threadNames; }

private:
    enum class Where : std::uint8_t { Root, Top, Events, Event, Args, Devices, Device, Distributed, Skip };
    enum class Field : std::uint8_t {
        Skip,
        TraceEvents,
        BaseTime,
        SchemaVersion,
        DeviceProperties,
        DistributedInfo,
        CudaRuntime,
        CudaDriver,
        WithStack,
        TorchVersion,
        Ph,
        Cat,
        Name,
        Pid,
        Tid,
        Ts,
        Dur,
        Args,
        ArgDevice,
        ArgStream,
        ArgCorrelation,
        ArgName,
        DeviceId,
        DeviceName,
        Rank,
        WorldSize,
        Backend,
    };
    enum class ValueType : std::uint8_t { Null, Bool, Number, String, Object, Array };

    struct OptionalInt {
        bool set = false;
        std::int64_t value = 0;
    };
    struct PendingEvent {
        std::string ph, cat, name, argName;
        bool hasArgName = false;
        OptionalInt pid, tid, ts, dur, device, stream, correlation;
    };
    struct PendingDevice {
        OptionalInt id;
        std::string name;
        bool hasName = false;
    };

    bool value(ValueType type, std::string_view text, bool flag);
    bool topLevelValue(ValueType type, std::string_view text, bool flag);
    bool eventValue(ValueType type, std::string_view text, bool flag);
    bool timeValue(ValueType type, std::string_view text, bool flag, const char* key, bool duration, OptionalInt& out);
    bool startContainer(Where where);
    bool endContainer();
    bool finishEvent();
    void finishDevice();
    bool fail(std::uint64_t offset, std::string message);
    static const char* typeWord(ValueType type);
    std::uint64_t here() const;
    std::uint64_t valueStart(ValueType type, std::string_view text, bool flag) const;
    OptionalInt integer(ValueType type, std::string_view text);
    std::uint32_t intern(const std::string& name);
    std::uint32_t laneIndex(bool gpu, std::int64_t pid, std::int64_t tid);

    const ByteStream& m_stream;
    std::vector<Where> m_stack;
    Field m_field = Field::Skip;
    bool m_topDone = false;
    std::uint64_t m_eventsInFile = 0;
    PendingEvent m_event;
    PendingDevice m_device;
    std::size_t m_deviceOrder = 0;

    KinetoTrace m_trace;
    KinetoReadCounts m_counts;
    std::optional<Error> m_error;
    std::unordered_map<std::string, std::uint32_t> m_nameIndex;
    struct LaneKey {
        bool gpu;
        std::int64_t pid;
        std::int64_t tid;
        bool operator==(const LaneKey& o) const { return gpu == o.gpu && pid == o.pid && tid == o.tid; }
    };
    struct LaneKeyHash {
        std::size_t operator()(const LaneKey& k) const
        {
            const std::uint64_t mixed
                = static_cast<std::uint64_t>(k.pid) * 1000003u + static_cast<std::uint64_t>(k.tid);
            return std::hash<std::uint64_t>()(mixed) ^ static_cast<std::size_t>(k.gpu);
        }
    };
    std::unordered_map<LaneKey, std::uint32_t, LaneKeyHash> m_laneIndex;
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> m_threadNames;
};

} // namespace synctax
