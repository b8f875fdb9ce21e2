#include "core/probe/probelines.h"

#include <nlohmann/json.hpp>
#include <rapidjson/document.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace synctax {

namespace {

using nlohmann::json;

void locateByte(const std::string& text, std::size_t at, ConfigError& error)
{
    error.line = 1;
    error.column = 1;
    for (std::size_t i = 0; i < at && i < text.size(); ++i) {
        const bool newline = text[i] == '\n';
        error.line += newline ? 1 : 0;
        error.column = newline ? 1 : error.column + 1;
    }
}

// Where `key` is written in the text; a key written twice (a nested object) is located at its first.
void locateKey(const std::string& text, const std::string& key, ConfigError& error)
{
    const std::size_t at = text.find('"' + key + '"');
    locateByte(text, at == std::string::npos ? 0 : at, error);
}

// Where `key` is written as a key of the JSON object that opens at the first '{' from byte `from`
// on, not as a key of an object inside it (ab.json's `defer` holds `calls`, and so does its
// `deferred`); npos where it is not one.
std::size_t keyOfObjectAt(const std::string& text, std::size_t from, const std::string& key)
{
    int depth = 0;
    for (std::size_t i = text.find('{', from); i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            const std::size_t start = i;
            for (++i; i < text.size() && text[i] != '"'; ++i)
                i += text[i] == '\\' ? 1 : 0;
            const std::size_t after = text.find_first_not_of(" \t\r\n", i + 1);
            if (depth == 1 && i - start - 1 == key.size() && text.compare(start + 1, key.size(), key) == 0
                && after != std::string::npos && text[after] == ':')
                return start;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            break;
        }
    }
    return std::string::npos;
}

std::string shown(const json* value)
{
    if (!value)
        return "nothing";
    std::string text = value->dump();
    return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

// The token at `at` as a message quotes it: up to the next delimiter, at most 16 bytes.
std::string tokenAt(const std::string& text, std::size_t at, const char* end)
{
    if (at >= text.size())
        return end;
    std::size_t n = 1;
    const std::string delimiters = " \t\r\n,:{}[]\"";
    if (delimiters.find(text[at]) == std::string::npos) {
        while (at + n < text.size() && n < 16 && delimiters.find(text[at + n]) == std::string::npos)
            ++n;
    }
    return "'" + text.substr(at, n) + "'";
}

// The text as JSON, or a syntax error at the byte where the parser stopped. `end` names the end of
// the text in the message ("the end of the line": a line cut off).
std::optional<json> parseJson(const std::string& text, const char* end, ConfigError& error)
{
    try {
        return json::parse(text);
    } catch (const json::parse_error& e) {
        const std::size_t at = std::min(e.byte > 0 ? e.byte - 1 : 0, text.size());
        locateByte(text, at, error);
        error.message = "expected JSON as the probe writes it, found " + tokenAt(text, at, end);
        return std::nullopt;
    }
}

std::optional<json> parseObject(const std::string& text, const char* end, ConfigError& error)
{
    auto j = parseJson(text, end, error);
    if (j && !j->is_object()) {
        locateByte(text, text.find_first_not_of(" \t\r\n"), error);
        error.message = "expected a JSON object, found " + shown(&*j);
        return std::nullopt;
    }
    return j;
}

// Bounds of what the probe can write: a phase or step of more than 1,000,000 ms (16 minutes) is a
// broken file, not a slow loop.
constexpr double kMaxMs = 1e6;
constexpr double kMaxNs = kMaxMs * 1e6;
constexpr double kMaxCount = 1e12;

std::string shortNumber(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

// An object's keys read with their types checked; the first key that is off becomes the error.
class Fields {
public:
    Fields(const json& object, const std::string& text, ConfigError& error)
        : m_object(object)
        , m_text(text)
        , m_error(error)
    {
    }
    // An object inside the text's, whose own key is written at byte `at`: a key that is off is
    // located among its keys.
    Fields(const json& object, const std::string& text, ConfigError& error, std::size_t at)
        : Fields(object, text, error)
    {
        m_at = at;
    }
    const std::string& text() const { return m_text; }
    ConfigError& error() const { return m_error; }
    void failed() { m_ok = false; } // a nested object's Fields said what is off
    // Where this object's `key` is written (where the object is, where it is not written).
    std::size_t offsetOf(const char* key) const
    {
        const std::size_t at = keyOfObjectAt(m_text, m_at.value_or(0), key);
        return at != std::string::npos ? at : m_at.value_or(0);
    }
    bool ok() const { return m_ok; }

    const json* find(const char* key) const
    {
        const auto it = m_object.find(key);
        return it == m_object.end() ? nullptr : &*it;
    }
    int64_t integer(const char* key) { return nullableInteger(key, true).value_or(0); }
    int64_t integerOr(const char* key, int64_t fallback) { return nullableInteger(key, false).value_or(fallback); }
    std::optional<int64_t> nullableInteger(const char* key, bool required = false)
    {
        const json* v = find(key);
        if (v && v->is_number_integer())
            return v->get<int64_t>();
        if ((v && !v->is_null()) || (!v && required))
            fail(key, "an integer", v);
        return std::nullopt;
    }
    double number(const char* key) { return nullableNumber(key, true).value_or(0.0); }
    double numberOr(const char* key, double fallback) { return nullableNumber(key, false).value_or(fallback); }
    std::optional<double> nullableNumber(const char* key, bool required = false)
    {
        const json* v = find(key);
        if (v && v->is_number())
            return v->get<double>();
        if ((v && !v->is_null()) || (!v && required))
            fail(key, "a number", v);
        return std::nullopt;
    }
    std::string string(const char* key, bool required = true)
    {
        const json* v = find(key);
        if (v && v->is_string())
            return v->get<std::string>();
        if ((v && !v->is_null()) || (!v && required))
            fail(key, "a string", v);
        return {};
    }
    bool boolean(const char* key)
    {
        const json* v = find(key);
        if (v && v->is_boolean())
            return v->get<bool>();
        if (v && !v->is_null())
            fail(key, "true or false", v);
        return false;
    }
    void fail(const char* key, const char* expected, const json* found)
    {
        if (!m_ok)
            return;
        m_ok = false;
        locate(key);
        m_error.message = std::string("expected ") + expected + " at \"" + key + "\", found " + shown(found);
    }

    // A value read above, refused where it is not in [low, high] (NaN included): what the probe
    // writes is never outside, and a hand-edited or broken file is said at its key.
    void within(const char* key, double value, double low, double high, const char* what)
    {
        if (!m_ok || (value >= low && value <= high))
            return;
        m_ok = false;
        locate(key);
        m_error.message = std::string("expected ") + what + " from " + shortNumber(low) + " to " + shortNumber(high)
            + " at \"" + key + "\", found " + shortNumber(value);
    }
    void within(const char* key, const std::optional<double>& value, double low, double high, const char* what)
    {
        if (value)
            within(key, *value, low, high, what);
    }

private:
    const json& m_object;
    const std::string& m_text;
    ConfigError& m_error;
    void locate(const char* key)
    {
        if (m_at)
            locateByte(m_text, offsetOf(key), m_error);
        else
            locateKey(m_text, key, m_error);
    }

    std::optional<std::size_t> m_at; // where the object's own key is written, for one inside another
    bool m_ok = true;
};

std::optional<int> toInt(std::optional<int64_t> v)
{
    return v ? std::optional<int>(static_cast<int>(*v)) : std::nullopt;
}

void readSyncs(Fields& f, ProbeStep& step)
{
    const json* syncs = f.find("syncs");
    if (!syncs || syncs->is_null())
        return;
    if (!syncs->is_array()) {
        f.fail("syncs", "a list of [op, site, wait_ns, phase]", syncs);
        return;
    }
    for (const json& s : *syncs) {
        const bool shaped = s.is_array() && s.size() == 4 && s[0].is_string() && s[1].is_number_integer()
            && s[2].is_number_integer() && s[3].is_string() && s[3].get<std::string>().size() == 1
            && std::string("FBO").find(s[3].get<std::string>()[0]) != std::string::npos;
        if (!shaped) {
            f.fail("syncs", "[op, site, wait_ns, phase] with phase F, B or O", &s);
            return;
        }
        step.syncs.push_back(
            { s[0].get<std::string>(), s[1].get<int>(), s[2].get<int64_t>(), s[3].get<std::string>()[0] });
    }
}

// A style's estimate in ab.json ({pct, ci_low, ci_high, step_ms, significant}); none where it is
// missing or lacks its interval.
std::optional<ProbeEstimate> estimate(const json* e)
{
    if (!e || !e->is_object())
        return std::nullopt;
    const auto value = [&](const char* key) {
        const auto v = e->find(key);
        return v != e->end() && v->is_number() ? std::optional<double>(v->get<double>()) : std::nullopt;
    };
    const auto pct = value("pct");
    const auto low = value("ci_low");
    const auto high = value("ci_high");
    if (!pct || !low || !high)
        return std::nullopt;
    const auto significant = e->find("significant");
    return ProbeEstimate { *pct, *low, *high, value("step_ms").value_or(0.0),
        significant != e->end() && significant->is_boolean() && significant->get<bool>() };
}

const json* member(const json* object, const std::string& key)
{
    if (!object || !object->is_object())
        return nullptr;
    const auto it = object->find(key);
    return it == object->end() ? nullptr : &*it;
}

bool flagged(const json* object)
{
    const json* flag = member(object, "flagged");
    return flag && flag->is_boolean() && flag->get<bool>();
}

} // namespace

std::optional<nlohmann::json> parseProbeJson(const std::string& text, ConfigError& error)
{
    return parseJson(text, "the end of the file", error);
}

namespace {

// The bounds of a step line's numbers (what the probe can write), key by key: check(key, value,
// low, high, what) for each. The quick path and the checked one hold a line to the same bounds.
template <typename Check> void eachStepBound(const ProbeStep& s, Check&& check)
{
    check("step", double(s.step), 0, kMaxCount, "a step number");
    check("t_ns", double(s.tNs), 0, kMaxCount * 1e6, "a time in ns");
    check("f_ns", double(s.fNs), 0, kMaxNs, "a time in ns");
    check("b_ns", double(s.bNs), 0, kMaxNs, "a time in ns");
    check("o_ns", double(s.oNs), 0, kMaxNs, "a time in ns");
    check("x_ns", double(s.xNs), 0, kMaxNs, "a time in ns");
    for (const int64_t wait : s.waitsNs)
        check("waits_ns", double(wait), 0, kMaxNs, "a wait in ns");
    for (const ProbeSync& sync : s.syncs)
        check("syncs", double(sync.waitNs), 0, kMaxNs, "a wait in ns");
    if (s.gpuMs)
        check("gpu_ms", *s.gpuMs, 0, kMaxMs, "a time in ms");
}

// steps.jsonl's lines as the probe writes them, read without building a JSON document of the
// line (a long run's folder holds a hundred thousand of them); any line this does not take whole
// (a missing or mistyped key, a value out of range, anything unusual) is read again by
// parseProbeStep's checked path, which says where it is off.
std::optional<ProbeStep> quickStep(const std::string& line)
{
    rapidjson::Document doc;
    doc.Parse(line.data(), line.size());
    if (doc.HasParseError() || !doc.IsObject())
        return std::nullopt;
    const auto member = [&](const char* key) -> const rapidjson::Value* {
        const auto it = doc.FindMember(key);
        return it == doc.MemberEnd() ? nullptr : &it->value;
    };
    const auto integer = [&](const char* key, int64_t& out, bool required) {
        const rapidjson::Value* v = member(key);
        if (!v || v->IsNull())
            return !required;
        if (!v->IsInt64())
            return false;
        out = v->GetInt64();
        return true;
    };
    const auto optionalInt = [&](const char* key, std::optional<int>& out) {
        const rapidjson::Value* v = member(key);
        if (!v || v->IsNull())
            return true;
        if (!v->IsInt64())
            return false;
        out = static_cast<int>(v->GetInt64());
        return true;
    };
    const auto text = [&](const char* key, std::string& out, bool required) {
        const rapidjson::Value* v = member(key);
        if (!v || v->IsNull())
            return !required;
        if (!v->IsString())
            return false;
        out.assign(v->GetString(), v->GetStringLength());
        return true;
    };
    ProbeStep s;
    if (!integer("step", s.step, true) || !text("stage", s.stage, true) || !optionalInt("block", s.block)
        || !optionalInt("round", s.round) || !text("style", s.style, false) || !integer("t_ns", s.tNs, true)
        || !integer("f_ns", s.fNs, true) || !integer("b_ns", s.bNs, true) || !integer("o_ns", s.oNs, true)
        || !integer("x_ns", s.xNs, false))
        return std::nullopt;
    if (const rapidjson::Value* waits = member("waits_ns"); waits && !waits->IsNull()) {
        if (!waits->IsArray() || waits->Size() != 3)
            return std::nullopt;
        for (rapidjson::SizeType i = 0; i < 3; ++i) {
            if (!(*waits)[i].IsInt64())
                return std::nullopt;
            s.waitsNs[i] = (*waits)[i].GetInt64();
        }
    }
    if (const rapidjson::Value* syncs = member("syncs"); syncs && !syncs->IsNull()) {
        if (!syncs->IsArray())
            return std::nullopt;
        for (const rapidjson::Value& e : syncs->GetArray()) {
            if (!e.IsArray() || e.Size() != 4 || !e[0].IsString() || !e[1].IsInt() || !e[2].IsInt64()
                || !e[3].IsString() || e[3].GetStringLength() != 1
                || std::string_view("FBO").find(e[3].GetString()[0]) == std::string::npos)
                return std::nullopt;
            s.syncs.push_back({ std::string(e[0].GetString(), e[0].GetStringLength()), e[1].GetInt(), e[2].GetInt64(),
                e[3].GetString()[0] });
        }
    }
    if (const rapidjson::Value* gpu = member("gpu_ms"); gpu && !gpu->IsNull()) {
        if (!gpu->IsNumber())
            return std::nullopt;
        s.gpuMs = gpu->GetDouble();
    }
    bool inBounds = true;
    eachStepBound(s, [&](const char*, double value, double low, double high, const char*) {
        inBounds = inBounds && value >= low && value <= high;
    });
    if (!inBounds)
        return std::nullopt;
    return s;
}

} // namespace

std::optional<ProbeStep> parseProbeStep(const std::string& line, ConfigError& error)
{
    if (auto quick = quickStep(line))
        return quick;
    const auto j = parseObject(line, "the end of the line", error);
    if (!j)
        return std::nullopt;
    Fields f(*j, line, error);
    ProbeStep s;
    s.step = f.integer("step");
    s.stage = f.string("stage");
    s.block = toInt(f.nullableInteger("block"));
    s.round = toInt(f.nullableInteger("round"));
    s.style = f.string("style", false);
    s.tNs = f.integer("t_ns");
    s.fNs = f.integer("f_ns");
    s.bNs = f.integer("b_ns");
    s.oNs = f.integer("o_ns");
    s.xNs = f.integerOr("x_ns", 0);
    if (const json* waits = f.find("waits_ns"); waits && !waits->is_null()) {
        const bool shaped = waits->is_array() && waits->size() == 3
            && std::all_of(waits->begin(), waits->end(), [](const json& w) { return w.is_number_integer(); });
        if (shaped) {
            for (std::size_t i = 0; i < 3; ++i)
                s.waitsNs[i] = (*waits)[i].get<int64_t>();
        } else {
            f.fail("waits_ns", "[F, B, O] integers", waits);
        }
    }
    readSyncs(f, s);
    s.gpuMs = f.nullableNumber("gpu_ms");
    eachStepBound(s, [&](const char* key, double value, double low, double high, const char* what) {
        f.within(key, value, low, high, what);
    });
    return f.ok() ? std::optional<ProbeStep>(std::move(s)) : std::nullopt;
}

std::optional<ProbeBlock> parseProbeBlock(const std::string& line, ConfigError& error)
{
    const auto j = parseObject(line, "the end of the line", error);
    if (!j)
        return std::nullopt;
    Fields f(*j, line, error);
    ProbeBlock b;
    b.block = static_cast<int>(f.integer("block"));
    b.round = toInt(f.nullableInteger("round"));
    b.style = f.string("style");
    b.tMs = f.number("t_ms");
    b.steps = static_cast<int>(f.integer("steps"));
    b.msPerStep = f.number("ms_per_step");
    b.fMs = f.numberOr("f_ms", 0);
    b.bMs = f.numberOr("b_ms", 0);
    b.oMs = f.numberOr("o_ms", 0);
    b.fWaitMs = f.numberOr("f_wait_ms", 0);
    b.bWaitMs = f.numberOr("b_wait_ms", 0);
    b.oWaitMs = f.numberOr("o_wait_ms", 0);
    b.syncsPerStep = f.numberOr("syncs_per_step", 0);
    b.addedItemMsPerStep = f.numberOr("added_item_ms_per_step", 0);
    b.drainMs = f.numberOr("drain_ms", 0);
    b.gpuMsMedian = f.nullableNumber("gpu_ms_median");
    b.gpuSteps = static_cast<int>(f.integerOr("gpu_steps", 0));
    b.probeMs = f.nullableNumber("probe_ms");
    b.timed = !f.find("timed") || f.boolean("timed");
    b.firstStep = f.integerOr("first_step", -1);
    b.addedItems = f.integerOr("added_items", 0);
    b.waitMsPerStep = f.numberOr("wait_ms_per_step", 0);
    if (const std::string site = f.string("deferred_site", false); !site.empty())
        b.deferredSite = site;
    b.deferred = f.integerOr("deferred", 0);
    b.deferredWaited = f.integerOr("deferred_waited", 0);
    f.within("block", double(b.block), 0, kMaxCount, "a block number");
    if (b.round)
        f.within("round", double(*b.round), 0, kMaxCount, "a round number");
    f.within("t_ms", b.tMs, 0, kMaxCount, "a time in ms");
    f.within("steps", double(b.steps), 1, kMaxCount, "a number of steps");
    const std::pair<const char*, double> times[] = { { "ms_per_step", b.msPerStep }, { "f_ms", b.fMs },
        { "b_ms", b.bMs }, { "o_ms", b.oMs }, { "f_wait_ms", b.fWaitMs }, { "b_wait_ms", b.bWaitMs },
        { "o_wait_ms", b.oWaitMs }, { "added_item_ms_per_step", b.addedItemMsPerStep }, { "drain_ms", b.drainMs },
        { "wait_ms_per_step", b.waitMsPerStep } };
    for (const auto& [key, value] : times)
        f.within(key, value, 0, kMaxMs, "a time in ms");
    f.within("syncs_per_step", b.syncsPerStep, 0, kMaxCount, "a number of syncs");
    f.within("deferred", double(b.deferred), 0, kMaxCount, "a number of reads");
    f.within("deferred_waited", double(b.deferredWaited), 0, kMaxCount, "a number of reads");
    f.within("gpu_ms_median", b.gpuMsMedian, 0, kMaxMs, "a time in ms");
    f.within("probe_ms", b.probeMs, 0, kMaxMs, "a time in ms");
    return f.ok() ? std::optional<ProbeBlock>(std::move(b)) : std::nullopt;
}

std::optional<std::array<double, 3>> parseProbePhasesRow(const std::string& line, ConfigError& error)
{
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#' || line.compare(first, 7, "forward") == 0)
        return std::nullopt;
    std::array<double, 3> row {};
    std::size_t at = 0;
    for (std::size_t i = 0; i < 3; ++i) {
        const std::size_t comma = line.find(',', at);
        std::string field = line.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        while (!field.empty() && (field.back() == '\r' || field.back() == ' '))
            field.pop_back();
        char* end = nullptr;
        row[i] = std::strtod(field.c_str(), &end);
        if (field.empty() || end != field.c_str() + field.size()) {
            error.line = 1;
            error.column = static_cast<int>(at) + 1;
            error.message
                = "expected a number in ms, found " + (field.empty() ? std::string("nothing") : "'" + field + "'");
            return std::nullopt;
        }
        if (!(row[i] >= 0 && row[i] <= kMaxMs)) {
            error.line = 1;
            error.column = static_cast<int>(at) + 1;
            error.message = "expected a time in ms from 0 to " + shortNumber(kMaxMs) + ", found '" + field + "'";
            return std::nullopt;
        }
        if ((i < 2) != (comma != std::string::npos)) {
            error.line = 1;
            error.column = static_cast<int>(comma == std::string::npos ? line.size() : comma) + 1;
            error.message = i < 2 ? "expected 3 numbers (F,B,O), found " + std::to_string(i + 1)
                                  : std::string("expected 3 numbers (F,B,O), found more");
            return std::nullopt;
        }
        at = comma + 1;
    }
    return row;
}

std::optional<ProbeStart> parseProbeStart(const std::string& text, ConfigError& error)
{
    const auto j = parseObject(text, "the end of the file", error);
    if (!j)
        return std::nullopt;
    Fields f(*j, text, error);
    ProbeStart s;
    s.script = f.string("script", false);
    s.hostname = f.string("hostname", false);
    s.pid = f.integerOr("pid", 0);
    s.startTime = f.string("start_time", false);
    if (const json* cuda = f.find("cuda_available"); cuda && !cuda->is_null())
        s.cudaAvailable = f.boolean("cuda_available");
    if (const json* options = f.find("options"); options && options->is_object()) {
        Fields o(*options, text, error);
        s.ab = o.string("ab", false);
        s.blockSteps = static_cast<int>(o.integerOr("block_steps", 0));
        s.seed = static_cast<uint64_t>(o.integerOr("seed", 1));
        s.resamples = static_cast<int>(o.integerOr("bootstrap", 2000));
        if (!o.ok())
            return std::nullopt;
    }
    return f.ok() ? std::optional<ProbeStart>(std::move(s)) : std::nullopt;
}

std::optional<std::vector<ProbeSite>> parseProbeSites(const std::string& text, ConfigError& error)
{
    const auto j = parseObject(text, "the end of the file", error);
    if (!j)
        return std::nullopt;
    Fields f(*j, text, error);
    const json* sites = f.find("sites");
    if (!sites || !sites->is_array()) {
        f.fail("sites", "a list", sites);
        return std::nullopt;
    }
    std::vector<ProbeSite> out;
    for (const json& one : *sites) {
        if (!one.is_object()) {
            f.fail("sites", "a list of objects", &one);
            return std::nullopt;
        }
        Fields s(one, text, error);
        ProbeSite site;
        site.id = static_cast<int>(s.integer("id"));
        site.op = s.string("op");
        site.file = s.string("file", false);
        site.line = static_cast<int>(s.integerOr("line", 0));
        site.function = s.string("function", false);
        site.userFile = s.string("user_file", false);
        site.userLine = static_cast<int>(s.integerOr("user_line", 0));
        site.count = s.integerOr("count", 0);
        site.totalWaitMs = s.numberOr("total_wait_ms", 0);
        site.medianWaitUs = s.nullableNumber("median_wait_us");
        site.maxWaitUs = s.numberOr("max_wait_us", 0);
        if (!s.ok())
            return std::nullopt;
        out.push_back(std::move(site));
    }
    return out;
}

std::optional<ProbeEnd> parseProbeEnd(const std::string& text, ConfigError& error)
{
    const auto j = parseObject(text, "the end of the file", error);
    if (!j)
        return std::nullopt;
    Fields f(*j, text, error);
    ProbeEnd e;
    e.exitCode = toInt(f.nullableInteger("exit_code"));
    const json* exception = f.find("exception");
    // end.json says how the run ended in three keys; the outcome names it in one word.
    if (exception && !exception->is_null())
        e.outcome = "exception";
    else if (f.boolean("interrupted"))
        e.outcome = "interrupted";
    else
        e.outcome = "ok";
    e.steps = f.integerOr("steps", 0);
    e.stepsWritten = f.integerOr("steps_written", 0);
    e.stepsDropped = f.integerOr("steps_dropped", 0);
    e.stepsUntimed = f.integerOr("steps_untimed", 0);
    e.probeUsPerStep = f.nullableNumber("probe_us_per_step");
    e.writerUsPerStep = f.nullableNumber("writer_us_per_step");
    if (const json* effect = f.find("capture_after_effect"); effect && effect->is_object()) {
        e.captureAfterEffect = estimate(effect);
        const auto blocks = [&](const char* key) {
            const json* v = member(effect, key);
            return v && v->is_number_integer() ? v->get<int>() : 0;
        };
        e.captureBlocksBefore = blocks("before_blocks");
        e.captureBlocksAfter = blocks("after_blocks");
    }
    if (const json* flagged = f.find("capture_after_effect_flagged"); flagged && flagged->is_boolean())
        e.captureFlagged = flagged->get<bool>() && e.captureAfterEffect.has_value();
    if (const json* faster = f.find("capture_faster_after"); faster && faster->is_boolean())
        e.captureFasterAfter = faster->get<bool>() && e.captureAfterEffect.has_value();
    if (const json* within = f.find("capture_within_drift"); within && within->is_boolean() && within->get<bool>()) {
        if (const auto drift = estimate(f.find("capture_drift"))) {
            e.captureWithinDrift = true;
            e.captureDriftPct = drift->pct;
        }
    }
    e.captureReason = f.string("capture_after_effect_reason", false);
    e.captureTeardown = f.string("capture_teardown", false);
    return f.ok() ? std::optional<ProbeEnd>(std::move(e)) : std::nullopt;
}

namespace {

// defer.deferred.lag_calls or lag_steps: {median, max} reads or steps, 0 <= median <= max; none
// where null.
std::optional<ProbeLag> readLag(Fields& f, const char* key)
{
    const json* lag = f.find(key);
    if (!lag || lag->is_null())
        return std::nullopt;
    const json* median = member(lag, "median");
    const json* max = member(lag, "max");
    const bool shaped = median && max && median->is_number_integer() && max->is_number_integer()
        && median->get<int64_t>() >= 0 && median->get<int64_t>() <= max->get<int64_t>()
        && max->get<int64_t>() <= int64_t(kMaxCount);
    if (!shaped) {
        f.fail(key, "{\"median\", \"max\"} with 0 <= median <= max", lag);
        return std::nullopt;
    }
    return ProbeLag { median->get<int64_t>(), max->get<int64_t>() };
}

// The defer blocks' reads (defer.deferred): each late, waited or read as before, together its calls.
void readDeferred(Fields& f, ProbeDefer& d)
{
    const json* deferred = f.find("deferred");
    if (!deferred || deferred->is_null())
        return;
    if (!deferred->is_object()) {
        f.fail("deferred", "an object of the defer blocks' reads", deferred);
        return;
    }
    Fields r(*deferred, f.text(), f.error(), f.offsetOf("deferred"));
    d.calls = r.integerOr("calls", 0);
    d.late = r.integerOr("late", 0);
    const int64_t first = r.integerOr("waited_first", 0);
    const int64_t inFlight = r.integerOr("waited_in_flight", 0);
    d.notDeferred = r.integerOr("not_deferred", 0);
    d.lagLimitCalls = static_cast<int>(r.integerOr("lag_limit_calls", 0));
    const std::pair<const char*, int64_t> counts[]
        = { { "calls", d.calls }, { "late", d.late }, { "waited_first", first }, { "waited_in_flight", inFlight },
              { "not_deferred", d.notDeferred }, { "lag_limit_calls", d.lagLimitCalls } };
    for (const auto& [key, value] : counts)
        r.within(key, double(value), 0, kMaxCount, "a number of reads");
    d.waited = first + inFlight;
    if (r.ok() && d.late + d.waited + d.notDeferred != d.calls)
        r.fail("calls", "the sum of late, waited_first, waited_in_flight and not_deferred", r.find("calls"));
    d.lagCalls = readLag(r, "lag_calls");
    d.lagSteps = readLag(r, "lag_steps");
    d.error = r.string("error", false);
    if (!r.ok())
        f.failed();
}

// ab.json's `defer` (docs/probe-folder.md), its values held to what the probe can write: the first
// that is off is the error, located at its key inside the object.
std::optional<ProbeDefer> parseDefer(const json& object, const std::string& text, ConfigError& error)
{
    const std::size_t at = keyOfObjectAt(text, 0, "defer"); // not estimates' or a round's `defer`
    Fields f(object, text, error, at == std::string::npos ? 0 : at);
    ProbeDefer d;
    d.site = f.string("site", false);
    if (const json* site = f.find("site"); site && site->is_string() && d.site.empty())
        f.fail("site", "FILE:LINE", site);
    if (const std::optional<int64_t> line = f.nullableInteger("line"))
        f.within("line", double(*line), 1, kMaxCount, "a line number");
    const std::string chosen = f.string("chosen", false);
    if (!chosen.empty() && chosen != "named" && chosen != "picked")
        f.fail("chosen", "\"named\" or \"picked\"", f.find("chosen"));
    d.picked = chosen == "picked";
    if (const json* ops = f.find("ops"); ops && !ops->is_null()) {
        if (!ops->is_array() || !std::all_of(ops->begin(), ops->end(), [](const json& op) { return op.is_string(); }))
            f.fail("ops", "a list of sync ops", ops);
        else
            for (const json& op : *ops)
                d.ops.push_back(op.get<std::string>());
    }
    d.callsPerStep = f.numberOr("calls_per_step", 0);
    f.within("calls_per_step", d.callsPerStep, 0, kMaxCount, "a number of reads a step");
    d.waitMs = f.nullableNumber("wait_ms");
    f.within("wait_ms", d.waitMs, 0, kMaxMs, "a wait in ms");
    f.within("wait_ms_per_step", f.nullableNumber("wait_ms_per_step"), 0, kMaxMs, "a wait in ms");
    d.refused = f.string("refused", false);
    d.roundsWithoutLine = static_cast<int>(f.integerOr("rounds_without_line", 0));
    f.within("rounds_without_line", double(d.roundsWithoutLine), 0, kMaxCount, "a count of rounds");
    if (f.ok())
        readDeferred(f, d);
    return f.ok() ? std::optional<ProbeDefer>(std::move(d)) : std::nullopt;
}

} // namespace

std::optional<ProbeAb> parseProbeAb(const std::string& text, ConfigError& error)
{
    const auto j = parseObject(text, "the end of the file", error);
    if (!j)
        return std::nullopt;
    Fields f(*j, text, error);
    ProbeAb ab;
    ab.ab = f.string("ab", false);
    ab.rounds = static_cast<int>(f.integerOr("rounds", 0));
    if (ab.rounds < 0)
        f.fail("rounds", "a count of rounds (0 or more)", f.find("rounds"));
    ab.roundsBeforeCaptureOnly = f.string("rounds_from", false) == "before the capture";
    ab.blockSteps = static_cast<int>(f.integerOr("block_steps", 0));
    ab.baselineStepMs = f.nullableNumber("baseline_step_ms");
    if (ab.baselineStepMs && !(*ab.baselineStepMs > 0 && *ab.baselineStepMs < 1e9))
        f.fail("baseline_step_ms", "milliseconds above 0", f.find("baseline_step_ms"));
    const std::string control = f.string("control", false);
    if (const json* defer = f.find("defer"); defer && !defer->is_null()) {
        if (!defer->is_object()) {
            f.fail("defer", "an object: the line --ab defer deferred", defer);
            return std::nullopt;
        }
        ab.defer = parseDefer(*defer, text, error);
        if (!ab.defer)
            return std::nullopt;
    }
    const json* estimates = f.find("estimates");
    if (!estimates || !estimates->is_object()) {
        const std::string reason = f.string("reason", false);
        ab.reason = reason.empty() ? std::string("too few rounds") : reason;
        return f.ok() ? std::optional<ProbeAb>(std::move(ab)) : std::nullopt;
    }
    const std::string style = ab.ab.empty() ? std::string("item") : ab.ab; // the style the A/B added
    ab.item = estimate(member(estimates, style));
    ab.control = estimate(member(estimates, control.empty() ? std::string("none_aa") : control));
    // A step time's change below -100% or an interval that does not hold its estimate is none the
    // probe writes: the file was edited or spoilt.
    for (const std::optional<ProbeEstimate>& e : { ab.item, ab.control }) {
        if (e && !(e->ciLow <= e->pct && e->pct <= e->ciHigh && e->ciLow > -100 && e->ciHigh < 1e6)) {
            f.fail("estimates", "estimates with ci_low <= pct <= ci_high, each above -100%", estimates);
            return std::nullopt;
        }
    }
    if (const json* counted = f.find("counted_styles");
        counted && counted->is_array() && std::find(counted->begin(), counted->end(), json("none")) != counted->end())
        ab.timing = estimate(member(estimates, "calib"));
    if (const json* drift = f.find("drift"); drift && drift->is_object()) {
        const json* pct = member(drift, "pct");
        ab.driftFlagged = flagged(drift);
        ab.driftPct = pct && pct->is_number() ? pct->get<double>() : 0.0;
    }
    if (const json* moved = member(f.find("tax_drift"), style); moved && moved->is_object()) {
        ab.taxFirstHalf = estimate(member(moved, "first_half"));
        ab.taxSecondHalf = estimate(member(moved, "second_half"));
        ab.taxDriftFlagged = flagged(moved) && ab.taxFirstHalf && ab.taxSecondHalf;
    }
    if (const json* windows = f.find("windows"); windows && windows->is_array()) {
        for (const json& w : *windows) {
            if (!w.is_object())
                continue;
            const auto count = [&](const char* key) {
                const json* v = member(&w, key);
                return v && v->is_number_integer() ? v->get<int>() : 0;
            };
            ab.windows.push_back({ count("first_round"), count("rounds"), estimate(member(&w, style)) });
        }
    }
    return f.ok() ? std::optional<ProbeAb>(std::move(ab)) : std::nullopt;
}

} // namespace synctax
