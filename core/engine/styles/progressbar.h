#pragma once

#include <cstdint>
#include <string>

namespace synctax {

class Sink;

// A tqdm-like text bar: update() redraws at most every minInterval seconds (tqdm's mininterval,
// 0.1 s); setPostfix() redraws at once, as tqdm's set_postfix(refresh=True) does. Time is passed
// in, so the bar's behaviour is testable without waiting.
class ProgressBar {
public:
    ProgressBar(Sink& sink, int64_t total, double minIntervalS = 0.1);

    void start(double nowS);
    void update(int64_t n, double nowS); // n steps done so far
    void setPostfix(const std::string& postfix, double nowS);
    void close(double nowS);

    std::string render(double nowS) const;
    int64_t draws() const { return m_draws; }

private:
    void draw(double nowS);

    Sink& m_sink;
    int64_t m_total;
    double m_minInterval;
    int64_t m_n = 0;
    double m_startS = 0;
    double m_lastDrawS = -1e300;
    int64_t m_draws = 0;
    std::string m_postfix;
    std::string m_line;
};

} // namespace synctax
