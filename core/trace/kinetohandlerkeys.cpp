// The keys KinetoHandler knows, at each place in a trace, and the top-level metadata values.
#include "core/trace/kinetohandler.h"

#include "core/config/configerror.h"

#include "core/trace/tracenumber.h"

namespace synctax {

namespace {

// Device ids index deviceProperties; a larger id is not a device Kineto wrote.
constexpr std::int64_t kMaxDeviceId = 4096;

} // namespace

bool KinetoHandler::Key(const Ch* str, SizeType length, bool)
{
    const std::string_view key(str, length);
    m_field = Field::Skip;
    switch (m_stack.back()) {
    case Where::Top:
        if (key == "traceEvents")
            m_field = Field::TraceEvents;
        else if (key == "baseTimeNanoseconds")
            m_field = Field::BaseTime;
        else if (key == "schemaVersion")
            m_field = Field::SchemaVersion;
        else if (key == "deviceProperties")
            m_field = Field::DeviceProperties;
        else if (key == "distributedInfo")
            m_field = Field::DistributedInfo;
        else if (key == "cuda_runtime_version")
            m_field = Field::CudaRuntime;
        else if (key == "cuda_driver_version")
            m_field = Field::CudaDriver;
        else if (key == "with_stack")
            m_field = Field::WithStack;
        else if (key == "torch_version")
            m_field = Field::TorchVersion;
        break;
    case Where::Event:
        if (key == "ph")
            m_field = Field::Ph;
        else if (key == "cat")
            m_field = Field::Cat;
        else if (key == "name")
            m_field = Field::Name;
        else if (key == "pid")
            m_field = Field::Pid;
        else if (key == "tid")
            m_field = Field::Tid;
        else if (key == "ts")
            m_field = Field::Ts;
        else if (key == "dur")
            m_field = Field::Dur;
        else if (key == "args")
            m_field = Field::Args;
        break;
    case Where::Args:
        if (key == "device")
            m_field = Field::ArgDevice;
        else if (key == "stream")
            m_field = Field::ArgStream;
        else if (key == "correlation")
            m_field = Field::ArgCorrelation;
        else if (key == "name")
            m_field = Field::ArgName;
        break;
    case Where::Device:
        if (key == "id")
            m_field = Field::DeviceId;
        else if (key == "name")
            m_field = Field::DeviceName;
        break;
    case Where::Distributed:
        if (key == "rank")
            m_field = Field::Rank;
        else if (key == "world_size")
            m_field = Field::WorldSize;
        else if (key == "backend")
            m_field = Field::Backend;
        break;
    default:
        break;
    }
    return true;
}

bool KinetoHandler::topLevelValue(ValueType type, std::string_view text, bool flag)
{
    const bool container = type == ValueType::Object || type == ValueType::Array;
    const Field field = m_field;
    m_field = Field::Skip;
    TraceInfo& info = m_trace.info;
    switch (field) {
    case Field::TraceEvents:
        ++m_counts.traceEventsKeys;
        if (type != ValueType::Array)
            return fail(valueStart(type, text, false),
                std::string("expected an array for \"traceEvents\", found ") + typeWord(type));
        return startContainer(Where::Events);
    case Field::BaseTime: {
        std::int64_t ns = 0;
        if (type != ValueType::Number)
            return fail(valueStart(type, text, false),
                std::string("expected a number for \"baseTimeNanoseconds\", found ") + typeWord(type));
        const DecimalStatus status = exactInteger(text, ns);
        if (status == DecimalStatus::TooLarge)
            return fail(valueStart(type, text, flag),
                "expected a number of nanoseconds that fits in int64 for \"baseTimeNanoseconds\", found "
                    + std::string(text));
        if (status != DecimalStatus::Ok)
            return fail(valueStart(type, text, flag),
                "expected an integer number of nanoseconds for \"baseTimeNanoseconds\", found " + std::string(text));
        info.baseTimeNs = ns;
        m_counts.baseTimeOffset = here();
        return true;
    }
    case Field::DeviceProperties:
        if (type == ValueType::Array)
            return startContainer(Where::Devices);
        break;
    case Field::DistributedInfo:
        if (type == ValueType::Object) {
            ++m_counts.distributedInfoKeys;
            return startContainer(Where::Distributed);
        }
        break;
    case Field::SchemaVersion:
        if (const OptionalInt v = integer(type, text); v.set && v.value >= 0 && v.value < 1000000) {
            info.schemaVersion = static_cast<int>(v.value);
            return true;
        }
        break;
    case Field::CudaRuntime:
    case Field::CudaDriver:
        if (const OptionalInt v = integer(type, text); v.set) {
            (field == Field::CudaRuntime ? info.cudaRuntimeVersion : info.cudaDriverVersion) = v.value;
            return true;
        }
        break;
    case Field::WithStack:
        if (type == ValueType::Bool || type == ValueType::Number) {
            info.withStack = info.withStack || (type == ValueType::Bool ? flag : integer(type, text).value != 0);
            return true;
        }
        break;
    case Field::TorchVersion:
        if (type == ValueType::String) {
            info.torchVersion = printable(std::string(text));
            return true;
        }
        break;
    default:
        if (container)
            return startContainer(Where::Skip);
        return true;
    }
    ++m_counts.ignoredMetadata;
    if (container)
        return startContainer(Where::Skip);
    return true;
}

void KinetoHandler::finishDevice()
{
    const std::size_t order = m_deviceOrder++;
    if (!m_device.hasName)
        return;
    const std::int64_t id = m_device.id.set ? m_device.id.value : static_cast<std::int64_t>(order);
    if (id < 0 || id > kMaxDeviceId) {
        ++m_counts.ignoredMetadata;
        return;
    }
    auto& devices = m_trace.info.devices;
    if (devices.size() <= static_cast<std::size_t>(id))
        devices.resize(static_cast<std::size_t>(id) + 1);
    devices[static_cast<std::size_t>(id)] = m_device.name;
}

} // namespace synctax
