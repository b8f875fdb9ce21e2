#pragma once

#include "core/config/configerror.h"
#include "core/config/configschema.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace synctax {

// Where a value is, for its messages: the name they start with (a key such as "seed", a JSON pointer
// such as "/cells/0/steps_measured"; empty for a bare message) and its line and column (0 where the
// format gives none).
struct ValuePlace {
    std::string name;
    int line = 0;
    int column = 0;
};

// The checks of values read from an input file, shared by the YAML readers (configs, simulations)
// and the JSON results reader. Each problem becomes a located ConfigError, collected rather than
// thrown so that one pass reports them all. The readers decode their format's values; these decide
// whether a value will do, and say why not.
class CheckedReader {
public:
    // How a message names a value out of range. People write configs: theirs quote the value and the
    // range ("seed: -1 is out of range; expected 0 to ..."). A results file's say "the number" or, as
    // they always have, "the integer is out of range" without the range.
    enum class Wording { AsWritten, Generic };

    CheckedReader(std::string source, std::vector<ConfigError>& errors, Wording wording);

    void error(const ValuePlace& at, const std::string& message); // "name: message"
    // "expected WANTED, found FOUND"; without ", found" when FOUND is empty.
    void expected(const ValuePlace& at, const std::string& wanted, const std::string& found);
    // A name not among `known` (what `noun`s may be called).
    void unknown(
        const ValuePlace& at, const std::string& noun, const std::string& text, const std::vector<std::string>& known);

    // `value` is the decoded value, or nothing when what is there (`found`) is not one of its type;
    // `written` is a number as the file writes it.
    std::optional<int64_t> integer(
        const ValuePlace& at, std::optional<int64_t> value, const std::string& found, int64_t min, int64_t max);
    std::optional<double> number(const ValuePlace& at, std::optional<double> value, const std::string& found,
        const std::string& written, double min, double max);
    std::optional<bool> boolean(const ValuePlace& at, std::optional<bool> value, const std::string& found);
    template <typename E>
    std::optional<E> choice(const ValuePlace& at, const std::string& text, const ChoiceKey<E>& key)
    {
        const auto value = key.find(text);
        if (!value)
            unknown(at, key.name, text, key.names());
        return value;
    }

    const std::string& source() const { return m_source; }
    size_t errorCount() const { return m_errors.size(); } // so far, in the shared list

private:
    std::string m_source;
    std::vector<ConfigError>& m_errors;
    Wording m_wording;
};

} // namespace synctax
