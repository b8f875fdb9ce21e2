#include "core/trace/kinetohandler.h"

#include "core/files/bytestream.h"
#include "core/trace/traceclassifier.h"
#include "core/trace/tracenumber.h"

#include "core/config/configerror.h"

#include <algorithm>

namespace synctax {

namespace {

// A name as the trace spells it, but with control characters escaped (\x1b): names are shown on
// terminals, where an escape sequence or a carriage return in one would act rather than show.
void assignShown(std::string& name, std::string_view text)
{
    const bool control = std::any_of(text.begin(), text.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte < 0x20 || byte == 0x7f;
    });
    if (control)
        name = printable(std::string(text));
    else
        name.assign(text);
}

} // namespace

KinetoHandler::KinetoHandler(const ByteStream& stream)
    : m_stream(stream)
{
    m_stack.reserve(16);
    m_stack.push_back(Where::Root);
}

const char* KinetoHandler::typeWord(ValueType type)
{
    static const char* const words[] = { "null", "a boolean", "a number", "a string", "an object", "an array" };
    return words[static_cast<int>(type)];
}

std::uint64_t KinetoHandler::here() const { return m_stream.Tell(); }

// Where the value just read began: the handler is called once the parser has gone past it, except
// for StartObject and StartArray, which the iterative parser calls before it takes the bracket.
// Exact but for strings with escapes, which begin a little earlier than this says.
std::uint64_t KinetoHandler::valueStart(ValueType type, std::string_view text, bool flag) const
{
    std::uint64_t length = 0;
    switch (type) {
    case ValueType::Object:
    case ValueType::Array:
        break;
    case ValueType::Number:
        length = text.size();
        break;
    case ValueType::String:
        length = text.size() + 2;
        break;
    case ValueType::Null:
        length = 4;
        break;
    case ValueType::Bool:
        length = flag ? 4 : 5;
        break;
    }
    return here() - std::min(here(), length);
}

bool KinetoHandler::insideEvents() const
{
    return std::find(m_stack.begin(), m_stack.end(), Where::Events) != m_stack.end();
}

std::int64_t KinetoHandler::eventIndex() const
{
    // Between two events (or before the first) the place is the next one's.
    const auto count = static_cast<std::int64_t>(m_eventsInFile);
    return m_stack.back() == Where::Events ? count : count - 1;
}

bool KinetoHandler::fail(std::uint64_t offset, std::string message)
{
    Error e;
    e.offset = offset;
    e.eventIndex = insideEvents() ? eventIndex() : -1;
    e.message = std::move(message);
    m_error = std::move(e);
    return false;
}

KinetoHandler::OptionalInt KinetoHandler::integer(ValueType type, std::string_view text)
{
    OptionalInt result;
    if (type == ValueType::Number)
        result.set = exactInteger(text, result.value) == DecimalStatus::Ok;
    return result;
}

bool KinetoHandler::Null() { return value(ValueType::Null, {}, false); }

bool KinetoHandler::Bool(bool b) { return value(ValueType::Bool, {}, b); }

bool KinetoHandler::RawNumber(const Ch* str, SizeType length, bool)
{
    return value(ValueType::Number, std::string_view(str, length), false);
}

bool KinetoHandler::String(const Ch* str, SizeType length, bool)
{
    return value(ValueType::String, std::string_view(str, length), false);
}

bool KinetoHandler::StartObject() { return value(ValueType::Object, {}, false); }

bool KinetoHandler::StartArray() { return value(ValueType::Array, {}, false); }

bool KinetoHandler::EndObject(SizeType) { return endContainer(); }

bool KinetoHandler::EndArray(SizeType) { return endContainer(); }

bool KinetoHandler::startContainer(Where where)
{
    m_stack.push_back(where);
    return true;
}

bool KinetoHandler::endContainer()
{
    const Where ended = m_stack.back();
    m_field = Field::Skip;
    if (ended == Where::Event) {
        const bool ok = finishEvent(); // while the event is still the place an error names
        m_stack.pop_back();
        return ok;
    }
    m_stack.pop_back();
    if (ended == Where::Device)
        finishDevice();
    if (ended == Where::Top)
        m_topDone = true;
    return true;
}

bool KinetoHandler::value(ValueType type, std::string_view text, bool flag)
{
    const Where where = m_stack.back();
    const bool container = type == ValueType::Object || type == ValueType::Array;
    if (type == ValueType::Number && text.find_first_of("0123456789") == std::string_view::npos) {
        // kParseNanAndInfFlag: NaN and Infinity come as numbers; say where they are.
        if (m_field == Field::Ts || m_field == Field::Dur || m_field == Field::BaseTime)
            return fail(valueStart(type, text, flag),
                std::string("expected a finite number for \"")
                    + (m_field == Field::BaseTime  ? "baseTimeNanoseconds"
                            : m_field == Field::Ts ? "ts"
                                                   : "dur")
                    + "\", found NaN or Infinity");
        ++m_counts.notFiniteElsewhere;
    }
    switch (where) {
    case Where::Root:
        if (type != ValueType::Object)
            return fail(valueStart(type, text, flag),
                std::string("expected a JSON object at the top level (a Kineto trace), found ") + typeWord(type));
        return startContainer(Where::Top);
    case Where::Top:
        return topLevelValue(type, text, flag);
    case Where::Events:
        if (type != ValueType::Object)
            return fail(valueStart(type, text, false),
                std::string("expected an object for each element of \"traceEvents\", found ") + typeWord(type));
        ++m_eventsInFile;
        m_event.ph.clear();
        m_event.cat.clear();
        m_event.name.clear();
        m_event.hasArgName = false;
        m_event.pid = m_event.tid = m_event.ts = m_event.dur = OptionalInt {};
        m_event.device = m_event.stream = m_event.correlation = OptionalInt {};
        return startContainer(Where::Event);
    case Where::Event:
        return eventValue(type, text, flag);
    case Where::Args:
        switch (m_field) {
        case Field::ArgDevice:
            m_event.device = integer(type, text);
            break;
        case Field::ArgStream:
            m_event.stream = integer(type, text);
            break;
        case Field::ArgCorrelation:
            m_event.correlation = integer(type, text);
            break;
        case Field::ArgName:
            if (type == ValueType::String) {
                assignShown(m_event.argName, text);
                m_event.hasArgName = true;
            }
            break;
        default:
            break;
        }
        break;
    case Where::Devices:
        if (type == ValueType::Object) {
            m_device = PendingDevice {};
            return startContainer(Where::Device);
        }
        ++m_counts.ignoredMetadata;
        break;
    case Where::Device:
        if (m_field == Field::DeviceId)
            m_device.id = integer(type, text);
        else if (m_field == Field::DeviceName && type == ValueType::String) {
            assignShown(m_device.name, text);
            m_device.hasName = true;
        }
        break;
    case Where::Distributed:
        if (m_field == Field::Rank || m_field == Field::WorldSize) {
            const OptionalInt v = integer(type, text);
            (m_field == Field::Rank ? m_trace.info.rank : m_trace.info.worldSize)
                = v.set ? std::optional<std::int64_t>(v.value) : std::nullopt;
        } else if (m_field == Field::Backend && type == ValueType::String)
            assignShown(m_trace.info.distributedBackend, text);
        break;
    case Where::Skip:
        break;
    }
    if (container)
        return startContainer(Where::Skip);
    return true;
}

bool KinetoHandler::timeValue(
    ValueType type, std::string_view text, bool flag, const char* key, bool duration, OptionalInt& out)
{
    if (type != ValueType::Number) {
        return fail(valueStart(type, text, flag),
            std::string("expected a number for \"") + key + "\", found " + typeWord(type));
    }
    const std::uint64_t start = here() - text.size();
    switch (microsToNs(text, out.value)) {
    case DecimalStatus::Ok:
        break;
    case DecimalStatus::TooLarge:
        return fail(start,
            std::string("expected a number of microseconds that fits in int64 nanoseconds for \"") + key + "\", found "
                + std::string(text));
    default:
        return fail(start, std::string("expected a number for \"") + key + "\", found " + std::string(text));
    }
    if (out.value < 0 && duration)
        return fail(start, "expected a duration of 0 or more for \"dur\", found " + std::string(text));
    out.set = true;
    return true;
}

bool KinetoHandler::eventValue(ValueType type, std::string_view text, bool flag)
{
    const Field field = m_field;
    m_field = Field::Skip;
    switch (field) {
    case Field::Ph:
    case Field::Cat:
    case Field::Name:
        if (type == ValueType::String && field == Field::Name)
            assignShown(m_event.name, text);
        else if (type == ValueType::String)
            (field == Field::Ph ? m_event.ph : m_event.cat).assign(text);
        break;
    case Field::Pid:
        m_event.pid = integer(type, text);
        break;
    case Field::Tid:
        m_event.tid = integer(type, text);
        break;
    case Field::Ts:
        return timeValue(type, text, flag, "ts", false, m_event.ts);
    case Field::Dur:
        return timeValue(type, text, flag, "dur", true, m_event.dur);
    case Field::Args:
        if (type == ValueType::Object)
            return startContainer(Where::Args);
        break;
    default:
        break;
    }
    if (type == ValueType::Object || type == ValueType::Array)
        return startContainer(Where::Skip);
    return true;
}

std::uint32_t KinetoHandler::intern(const std::string& name)
{
    const auto [it, added] = m_nameIndex.try_emplace(name, static_cast<std::uint32_t>(m_trace.names.size()));
    if (added)
        m_trace.names.push_back(name);
    return it->second;
}

std::uint32_t KinetoHandler::laneIndex(bool gpu, std::int64_t pid, std::int64_t tid)
{
    const auto [it, added]
        = m_laneIndex.try_emplace(LaneKey { gpu, pid, tid }, static_cast<std::uint32_t>(m_trace.lanes.size()));
    if (added)
        m_trace.lanes.push_back(TraceLane { gpu, pid, tid, {} });
    return it->second;
}

bool KinetoHandler::finishEvent()
{
    const PendingEvent& e = m_event;
    if (e.ph == "M") {
        if (e.name == "thread_name" && e.hasArgName && e.pid.set && e.tid.set)
            m_threadNames[{ e.pid.value, e.tid.value }] = e.argName;
        return true;
    }
    if (e.ph != "X")
        return true;
    const std::optional<EventClass> cls = classifyEvent(e.cat, e.name);
    if (!cls) {
        if (e.cat == "gpu_user_annotation" && e.ts.set && e.name.rfind("ProfilerStep#", 0) == 0)
            m_trace.info.lastGpuStepStartNs
                = std::max(m_trace.info.lastGpuStepStartNs.value_or(e.ts.value), e.ts.value);
        return true;
    }
    if (!e.ts.set)
        return fail(here(), "expected a \"ts\" in each complete (ph \"X\") event of category " + e.cat);
    if (!e.dur.set)
        return fail(here(), "expected a \"dur\" in each complete (ph \"X\") event of category " + e.cat);
    TraceEvent event;
    std::int64_t endNs = 0;
    if (__builtin_add_overflow(e.ts.value, e.dur.value, &endNs))
        return fail(here(), "expected ts + dur to fit in int64 nanoseconds");
    event.startNs = e.ts.value;
    event.durationNs = e.dur.value;
    event.kind = cls->kind;
    const bool gpu = isGpuKind(cls->kind);
    if (gpu) {
        if (!e.stream.set) {
            ++m_counts.gpuWithoutStream;
            return true;
        }
        std::int64_t device = e.device.value;
        if (!e.device.set) {
            if (!e.pid.set) {
                ++m_counts.gpuWithoutStream;
                return true;
            }
            device = e.pid.value;
            ++m_counts.gpuDeviceFromPid;
        }
        event.lane = laneIndex(true, device, e.stream.value);
    } else {
        if (!e.pid.set || !e.tid.set) {
            ++m_counts.hostWithoutIds;
            return true;
        }
        event.lane = laneIndex(false, e.pid.value, e.tid.value);
    }
    event.fileIndex = static_cast<std::uint32_t>(m_eventsInFile);
    if (gpu || cls->kind == TraceEventKind::Launch || cls->kind == TraceEventKind::Sync
        || cls->kind == TraceEventKind::Runtime)
        event.correlation = e.correlation.set ? e.correlation.value : -1;
    event.name = intern(e.name);
    m_trace.events.push_back(event);
    m_trace.info.legacyCategories = m_trace.info.legacyCategories || cls->legacyCategory;
    m_trace.info.withStack = m_trace.info.withStack || cls->kind == TraceEventKind::PythonFunction;
    return true;
}

} // namespace synctax
