#include "core/results/resultsdiff.h"

#include "core/config/stylecatalog.h"
#include "core/results/resultsjson.h"
#include "core/results/resulttable.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace synctax {

namespace {

const CellResult* find(const ExperimentResult& r, const CellResult& like)
{
    for (const auto& c : r.cells) {
        if (sameGroup(c, like) && c.style == like.style)
            return &c;
    }
    return nullptr;
}

CellDiff cellDiff(const CellResult& c, const SweptKeys& swept)
{
    CellDiff d;
    d.key() = c.key();
    d.sweepPoint = sweepPointSuffix(swept, c);
    return d;
}

// The keys either run swept: a group's point is named when it tells groups apart in one of them.
SweptKeys sweptInEither(const ExperimentResult& a, const ExperimentResult& b)
{
    const SweptKeys sa = sweptKeys(a.config);
    const SweptKeys sb = sweptKeys(b.config);
    return { sa.hostWork || sb.hostWork, sa.batch || sb.batch };
}

std::string pct(const std::optional<Interval>& i) { return i ? formatOverhead(*i) : std::string("-"); }

using nlohmann::json;

// A config value as a reader writes it: names bare, lists joined, a style with its interval
// "item_every_n (n=10)".
std::string text(const json& v)
{
    if (v.is_string())
        return v.get<std::string>();
    if (v.is_array()) {
        std::string joined;
        for (const auto& e : v)
            joined += (joined.empty() ? "" : ", ") + text(e);
        return joined;
    }
    if (v.is_object() && v.contains("name")) {
        std::string rest;
        for (const auto& [key, value] : v.items()) {
            if (key != "name")
                rest += (rest.empty() ? "" : ", ") + key + "=" + text(value);
        }
        return text(v["name"]) + (rest.empty() ? "" : " (" + rest + ")");
    }
    return v.dump();
}

const json* modelNamed(const json& models, const std::string& name)
{
    for (const auto& m : models) {
        if (m.value("name", "") == name)
            return &m;
    }
    return nullptr;
}

// The keys of `a`, then those only `b` has; a nested object's keys as "outer.inner".
void diffObjects(const json& a, const json& b, const std::string& prefix, std::vector<ConfigDiff>& out)
{
    std::vector<std::string> keys;
    for (const auto& [key, value] : a.items())
        keys.push_back(key);
    for (const auto& [key, value] : b.items()) {
        if (!a.contains(key))
            keys.push_back(key);
    }
    for (const auto& key : keys) {
        const json va = a.value(key, json());
        const json vb = b.value(key, json());
        if (va.is_object() && vb.is_object())
            diffObjects(va, vb, prefix + key + ".", out);
        else if (va != vb)
            out.push_back({ prefix + key, text(va), text(vb) });
    }
}

std::vector<ConfigDiff> diffConfigs(const ExperimentConfig& configA, const ExperimentConfig& configB)
{
    json a = toJson(configA);
    json b = toJson(configB);
    const json modelsA = a["models"];
    const json modelsB = b["models"];
    const auto names = [](const json& models) {
        json list = json::array();
        for (const auto& m : models)
            list.push_back(m.value("name", ""));
        return list;
    };
    a["models"] = names(modelsA);
    b["models"] = names(modelsB);
    std::vector<ConfigDiff> out;
    diffObjects(a, b, "", out);
    for (const auto& ma : modelsA) {
        const std::string name = ma.value("name", "");
        const json* mb = modelNamed(modelsB, name);
        if (!mb)
            continue;
        json ownA = ma;
        json ownB = *mb;
        // A key the model takes from the top level in both runs: said once, above.
        for (const auto& [key, value] : ma.items()) {
            if (a.contains(key) && value == a[key] && mb->contains(key) && (*mb)[key] == b[key]) {
                ownA.erase(key);
                ownB.erase(key);
            }
        }
        diffObjects(ownA, ownB, name + ".", out);
    }
    return out;
}

} // namespace

std::string CellDiff::name() const { return model + "/" + mode + "/" + style + sweepPoint; }

bool CellDiff::intervalsOverlap() const
{
    if (!a || !b)
        return a.has_value() == b.has_value();
    return a->low <= b->high && b->low <= a->high;
}

bool CellDiff::same() const
{
    if (onlyInA || onlyInB || msA != msB || a.has_value() != b.has_value())
        return false;
    return !a || (a->estimate == b->estimate && a->low == b->low && a->high == b->high);
}

double GroupDiff::baselineChangePct() const
{
    return baselineMsA > 0 ? (baselineMsB / baselineMsA - 1.0) * 100.0 : 0.0;
}

bool GroupDiff::speedMoved() const
{
    // Under 1% a speed change moves no tax by much, however quiet the runs were.
    return baselineMsA > 0 && std::abs(baselineChangePct()) > std::max(noiseFloorPct, 1.0);
}

bool ResultsDiff::identical() const
{
    return config.empty() && environment.empty()
        && std::all_of(cells.begin(), cells.end(), [](const CellDiff& c) { return c.same(); });
}

ResultsDiff diffResults(const ExperimentResult& a, const ExperimentResult& b)
{
    ResultsDiff diff;
    const SweptKeys swept = sweptInEither(a, b);
    for (const auto& ca : a.cells) {
        CellDiff d = cellDiff(ca, swept);
        d.a = ca.overheadPct;
        d.msA = ca.stepMs.mean;
        if (const CellResult* cb = find(b, ca)) {
            d.b = cb->overheadPct;
            d.msB = cb->stepMs.mean;
        } else {
            d.onlyInA = true;
        }
        diff.cells.push_back(d);
    }
    for (const auto& cb : b.cells) {
        if (!find(a, cb)) {
            CellDiff d = cellDiff(cb, swept);
            d.b = cb.overheadPct;
            d.msB = cb.stepMs.mean;
            d.onlyInB = true;
            diff.cells.push_back(d);
        }
    }
    const auto baselineMs = [](const ExperimentResult& r, const GroupResult& g) {
        for (const auto& c : r.cells) {
            if (sameGroup(c, g) && c.style == baselineStyle() && c.ok)
                return c.stepMs.mean;
        }
        return 0.0;
    };
    for (const GroupResult& ga : a.groups) {
        for (const GroupResult& gb : b.groups) {
            if (!sameGroup(ga, gb))
                continue;
            GroupDiff g;
            g.groupKey() = ga;
            g.sweepPoint = sweepPointSuffix(swept, ga);
            g.baselineMsA = baselineMs(a, ga);
            g.baselineMsB = baselineMs(b, gb);
            g.noiseFloorPct = std::max(ga.noiseFloorPct, gb.noiseFloorPct);
            g.regimeA = ga.regime;
            g.regimeB = gb.regime;
            if (g.baselineMsA > 0 && g.baselineMsB > 0)
                diff.groups.push_back(g);
        }
    }
    diff.config = diffConfigs(a.config, b.config);
    const std::pair<const char*, std::string Environment::*> fields[] = {
        { "device", &Environment::device },
        { "device_name", &Environment::deviceName },
        { "driver", &Environment::driverVersion },
        { "torch_version", &Environment::torchVersion },
        { "synctax_version", &Environment::synctaxVersion },
        { "cpu", &Environment::cpu },
        { "host", &Environment::host },
    };
    for (const auto& [name, member] : fields) {
        if (a.environment.*member != b.environment.*member)
            diff.environment.push_back({ name, a.environment.*member, b.environment.*member });
    }
    return diff;
}

std::string formatDiff(const ResultsDiff& diff)
{
    if (diff.identical())
        return "no differences\n";
    std::string out;
    for (const auto& c : diff.config)
        out += "config " + c.key + ": " + c.a + "  |  " + c.b + "\n";
    for (const auto& e : diff.environment)
        out += "environment " + e.field + ": " + e.a + "  |  " + e.b + "\n";
    int nameWidth = 4;
    for (const auto& c : diff.cells)
        nameWidth = std::max(nameWidth, int(c.name().size()));
    char line[512];
    std::snprintf(line, sizeof line, "%-*s %24s %24s %8s  %s\n", nameWidth, "cell", "A", "B", "B-A", "intervals");
    out += line;
    for (const auto& c : diff.cells) {
        const std::string name = c.name();
        if (c.onlyInA || c.onlyInB) {
            out += name + ": only in " + (c.onlyInA ? "A" : "B") + "\n";
            continue;
        }
        char delta[32] = "-";
        if (c.a && c.b)
            std::snprintf(delta, sizeof delta, "%+.2f", c.b->estimate - c.a->estimate);
        std::snprintf(line, sizeof line, "%-*s %24s %24s %8s  %s\n", nameWidth, name.c_str(), pct(c.a).c_str(),
            pct(c.b).c_str(), delta,
            !c.a && !c.b               ? "baseline"
                : c.intervalsOverlap() ? "overlap"
                                       : "DISJOINT");
        out += line;
    }
    for (const GroupDiff& g : diff.groups)
        out += describeSpeedChange(g) + "\n";
    return out;
}

std::string describeSpeedChange(const GroupDiff& g)
{
    char line[512];
    std::snprintf(line, sizeof line, "%s/%s%s: baseline %.3f -> %.3f ms/step (%+.1f%%, noise floor %.1f%%)",
        g.model.c_str(), g.mode.c_str(), g.sweepPoint.c_str(), g.baselineMsA, g.baselineMsB, g.baselineChangePct(),
        g.noiseFloorPct);
    std::string out = line;
    if (g.regimeA.available && g.regimeB.available) {
        std::snprintf(line, sizeof line, "; D %.2f -> %.2f ms, G %.2f -> %.2f ms, %s -> %s", g.regimeA.dMs,
            g.regimeB.dMs, g.regimeA.gMs, g.regimeB.gMs, g.regimeA.label.c_str(), g.regimeB.label.c_str());
        out += line;
    }
    if (g.speedMoved())
        out += ": the loop ran at another speed; taxes move with it (most in the balanced regime), beyond what "
               "the intervals cover";
    return out;
}

} // namespace synctax
