#include "core/config/checkedreader.h"

#include <cmath>
#include <sstream>

namespace synctax {

CheckedReader::CheckedReader(std::string source, std::vector<ConfigError>& errors, Wording wording)
    : m_source(std::move(source))
    , m_errors(errors)
    , m_wording(wording)
{
}

void CheckedReader::error(const ValuePlace& at, const std::string& message)
{
    m_errors.push_back({ m_source, at.line, at.column, at.name.empty() ? message : at.name + ": " + message });
}

void CheckedReader::expected(const ValuePlace& at, const std::string& wanted, const std::string& found)
{
    error(at, "expected " + wanted + (found.empty() ? "" : ", found " + found));
}

void CheckedReader::unknown(
    const ValuePlace& at, const std::string& noun, const std::string& text, const std::vector<std::string>& known)
{
    if (m_wording == Wording::AsWritten)
        error(at, "unknown " + noun + " '" + text + "'; expected " + joinedOr(known));
    else
        error(at, "expected " + joinedOr(known) + ", found \"" + text + "\"");
}

std::optional<int64_t> CheckedReader::integer(
    const ValuePlace& at, std::optional<int64_t> value, const std::string& found, int64_t min, int64_t max)
{
    if (!value) {
        expected(at, "an integer", found);
        return std::nullopt;
    }
    if (*value < min || *value > max) {
        if (m_wording == Wording::AsWritten)
            error(at,
                std::to_string(*value) + " is out of range; expected " + std::to_string(min) + " to "
                    + std::to_string(max));
        else
            error(at, "the integer is out of range");
        return std::nullopt;
    }
    return value;
}

std::optional<double> CheckedReader::number(const ValuePlace& at, std::optional<double> value, const std::string& found,
    const std::string& written, double min, double max)
{
    if (!value) {
        expected(at, "a number", found);
        return std::nullopt;
    }
    if (!std::isfinite(*value) || *value < min || *value > max) {
        std::ostringstream range;
        range << min << " to " << max;
        const std::string shown = m_wording == Wording::AsWritten ? written : "the number";
        error(at, shown + " is out of range; expected " + range.str());
        return std::nullopt;
    }
    return value;
}

std::optional<bool> CheckedReader::boolean(const ValuePlace& at, std::optional<bool> value, const std::string& found)
{
    if (!value)
        expected(at, "true or false", found);
    return value;
}

} // namespace synctax
