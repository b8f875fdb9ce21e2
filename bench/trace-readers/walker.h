#pragma once

// The SAX side shared by the RapidJSON and nlohmann readers: follows the nesting and hands the
// fields of each traceEvents object to the Tally; everything deeper (args) is only skipped.

#include "tally.h"

#include <string_view>

namespace tracebench {

class EventWalker {
public:
    Tally tally;

    void startObject()
    {
        ++m_depth;
        if (inEvent())
            ++tally.events;
        m_field = Field::Other;
    }
    void endObject() { --m_depth; }
    void startArray()
    {
        ++m_depth;
        if (m_depth == 2 && m_eventsKey)
            m_eventsDepth = 2;
    }
    void endArray()
    {
        if (m_depth == m_eventsDepth)
            m_eventsDepth = -1;
        --m_depth;
    }
    void key(std::string_view k)
    {
        if (m_depth == 1)
            m_eventsKey = k == "traceEvents";
        else if (inEvent())
            m_field = classify(k);
    }
    void string(std::string_view s)
    {
        if (inEvent() && (m_field == Field::Ph || m_field == Field::Cat || m_field == Field::Name))
            tally.textBytes += s.size();
    }
    void number(std::string_view text)
    {
        if (!inEvent())
            return;
        if (m_field == Field::Ts)
            addNumber(tally.tsSum, tally.badNumbers, text);
        else if (m_field == Field::Dur)
            addNumber(tally.durSum, tally.badNumbers, text);
    }
    // nlohmann gives integers as values only; they are exact, so ns follow without text
    void integerMicros(long long us)
    {
        if (!inEvent())
            return;
        if (m_field == Field::Ts)
            tally.tsSum += static_cast<std::uint64_t>(us * 1000);
        else if (m_field == Field::Dur)
            tally.durSum += static_cast<std::uint64_t>(us * 1000);
    }

private:
    enum class Field { Other, Ph, Cat, Name, Ts, Dur };

    static Field classify(std::string_view k)
    {
        if (k == "ph")
            return Field::Ph;
        if (k == "cat")
            return Field::Cat;
        if (k == "name")
            return Field::Name;
        if (k == "ts")
            return Field::Ts;
        if (k == "dur")
            return Field::Dur;
        return Field::Other;
    }
    bool inEvent() const { return m_depth == 3 && m_eventsDepth == 2; }

    int m_depth = 0;
    int m_eventsDepth = -1;
    bool m_eventsKey = false;
    Field m_field = Field::Other;
};

} // namespace tracebench
