// The timeline's lanes as the load's worker builds them: what shows on top of a lane, the
// pyramid of buckets that paints it at any zoom, and which of them a paint uses.
#include "ui/trace/timelinelanes.h"

#include <QtTest>

using namespace synctax;

namespace {

constexpr std::int64_t base = 1'700'000'000'000'000'000; // absolute ns, as a trace's are

// A host thread, by hand (ns from `base`): a cpu_op [0, 350) with a launch [100, 300) inside it, a
// sync [400, 410) and a cpu_op [1000, 1024). 1024 ns over at least 1024 buckets: 1 ns the finest.
std::vector<LaneSpan> handBuiltLane()
{
    return { { base + 0, base + 350, TraceEventKind::CpuOp }, { base + 100, base + 300, TraceEventKind::Launch },
        { base + 400, base + 410, TraceEventKind::Sync }, { base + 1000, base + 1024, TraceEventKind::CpuOp } };
}

} // namespace

class TestTimelineLanes : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void spansAreWhatShowsOnTop()
    {
        const LaneSummary lane = summariseLane(handBuiltLane());
        // The launch hides the middle of its cpu_op, which shows on either side of it.
        const std::vector<std::array<std::int64_t, 3>> expected = { { 0, 100, int(TraceEventKind::CpuOp) },
            { 100, 300, int(TraceEventKind::Launch) }, { 300, 350, int(TraceEventKind::CpuOp) },
            { 400, 410, int(TraceEventKind::Sync) }, { 1000, 1024, int(TraceEventKind::CpuOp) } };
        QCOMPARE(lane.spans.size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(lane.spans[i].start - base, expected[i][0]);
            QCOMPARE(lane.spans[i].end - base, expected[i][1]);
            QCOMPARE(int(lane.spans[i].kind), int(expected[i][2]));
        }
        // Only the cpu_op after the launch is the rest of an event, painted where nothing else is.
        for (size_t i = 0; i < expected.size(); ++i)
            QCOMPARE(lane.spans[i].resumed, i == 2);
        // A nested op of the same kind adds nothing to draw.
        const LaneSummary nested = summariseLane({ { base, base + 100, TraceEventKind::CpuOp },
            { base + 10, base + 20, TraceEventKind::CpuOp }, { base + 150, base + 160, TraceEventKind::Kernel } });
        QCOMPARE(nested.spans.size(), size_t(2));
        QCOMPARE(nested.spans[0].end - base, std::int64_t(100));
    }

    void bucketsHoldTheBusyShareAndTheKindOfTheLastStart()
    {
        const LaneSummary lane = summariseLane(handBuiltLane());
        QCOMPARE(lane.origin, base);
        QCOMPARE(lane.levels.size(), size_t(11)); // 1 ns .. 1024 ns
        QCOMPARE(lane.levels[0].shift, 0);
        QCOMPARE(lane.levels[0].buckets.size(), size_t(1024));
        // Hand-computed from the spans above. 256 ns buckets: [0, 256): cpu_op 100 + launch 156 -> 1.0;
        // [256, 512): launch 44 + cpu_op 50 + sync 10 -> 104/256; [512, 768): 0; [768, 1024): cpu_op 24.
        const LaneLevel& l256 = lane.levels[8];
        QCOMPARE(l256.width(), std::int64_t(256));
        QCOMPARE(l256.buckets.size(), size_t(4));
        const double busy256[] = { 1.0, 104.0 / 256, 0.0, 24.0 / 256 };
        for (size_t i = 0; i < 4; ++i)
            QVERIFY2(qAbs(l256.buckets[i].busyFraction() - busy256[i]) < 1e-4, qPrintable(QString::number(i)));
        // Kinds, as painting the events in start order shows them: the last event starting in the
        // bucket (the launch at 100; the sync at 400, the cpu_op resumed at 300 being no start).
        QCOMPARE(int(l256.buckets[0].kind), int(TraceEventKind::Launch));
        QCOMPARE(int(l256.buckets[1].kind), int(TraceEventKind::Sync));
        QCOMPARE(int(l256.buckets[3].kind), int(TraceEventKind::CpuOp));
        // 512 ns buckets: (256 + 104)/512 = 0.703125; 24/512 = 0.046875.
        const LaneLevel& l512 = lane.levels[9];
        QCOMPARE(l512.width(), std::int64_t(512));
        QCOMPARE(l512.buckets.size(), size_t(2));
        QVERIFY(qAbs(l512.buckets[0].busyFraction() - 360.0 / 512) < 1e-4);
        QVERIFY(qAbs(l512.buckets[1].busyFraction() - 24.0 / 512) < 1e-4);
        // A coarser bucket's kind is its later half's with a start.
        QCOMPARE(int(l512.buckets[0].kind), int(TraceEventKind::Sync));
        QCOMPARE(int(l512.buckets[1].kind), int(TraceEventKind::CpuOp));
        QCOMPARE(lane.levels.back().buckets.size(), size_t(1));
    }

    void aBucketWithoutAStartTakesTheKindCoveringMostOfIt()
    {
        // 4096 ns over at most 1024 buckets: 4 ns each. [0, 4): cpu_op 3 ns, then a launch 1 ns ->
        // the launch, which started last; [12, 16): the launch from 9 goes on 1 ns, no start -> 0.25,
        // launch; [28, 32): the launch [22, 29) ends 1 ns in, its cpu_op [21, 40) resumes for 3 ns, no
        // start -> cpu_op; [4092, 4096): the kernel starts -> kernel.
        const LaneSummary lane = summariseLane({ { base, base + 3, TraceEventKind::CpuOp },
            { base + 3, base + 4, TraceEventKind::Launch }, { base + 8, base + 9, TraceEventKind::CpuOp },
            { base + 9, base + 13, TraceEventKind::Launch }, { base + 21, base + 40, TraceEventKind::CpuOp },
            { base + 22, base + 29, TraceEventKind::Launch }, { base + 4095, base + 4096, TraceEventKind::Kernel } });
        const LaneLevel& fine = lane.levels.front();
        QCOMPARE(fine.width(), std::int64_t(4));
        QCOMPARE(fine.buckets.size(), size_t(1024));
        QCOMPARE(int(fine.buckets[0].kind), int(TraceEventKind::Launch));
        QVERIFY(fine.buckets[0].starts);
        QVERIFY(qAbs(fine.buckets[0].busyFraction() - 1.0) < 1e-4);
        QVERIFY(qAbs(fine.buckets[1].busyFraction()) < 1e-4);
        QCOMPARE(int(fine.buckets[2].kind), int(TraceEventKind::Launch));
        QVERIFY(qAbs(fine.buckets[3].busyFraction() - 0.25) < 1e-4);
        QVERIFY(!fine.buckets[3].starts);
        QCOMPARE(int(fine.buckets[3].kind), int(TraceEventKind::Launch));
        QVERIFY(!fine.buckets[7].starts);
        QVERIFY(qAbs(fine.buckets[7].busyFraction() - 1.0) < 1e-4);
        QCOMPARE(int(fine.buckets[7].kind), int(TraceEventKind::CpuOp));
        QCOMPARE(int(fine.buckets[1023].kind), int(TraceEventKind::Kernel));
    }

    void aPaintUsesTheCoarsestLevelNoWiderThanAPixelOrTheVisibleSpans()
    {
        const LaneSummary lane = summariseLane(handBuiltLane());
        // All five spans visible, at most two to draw: 300 ns a pixel -> the 256 ns level.
        LanePaintPlan plan = planLanePaint(lane, base, base + 1024, 300.0, 2);
        QCOMPARE(plan.level, 8);
        plan = planLanePaint(lane, base, base + 1024, 600.0, 2);
        QCOMPARE(plan.level, 9);
        plan = planLanePaint(lane, base, base + 1024, 256.0, 2); // a bucket exactly a pixel wide
        QCOMPARE(plan.level, 8);
        plan = planLanePaint(lane, base, base + 1024, 5000.0, 2); // wider than the lane: the top
        QCOMPARE(plan.level, 10);
        // Few enough to draw, or a pixel finer than the finest bucket: the spans themselves.
        plan = planLanePaint(lane, base, base + 1024, 300.0, 5);
        QCOMPARE(plan.level, -1);
        QCOMPARE(plan.firstSpan, size_t(0));
        QCOMPARE(plan.lastSpan, size_t(5));
        plan = planLanePaint(lane, base, base + 1024, 0.5, 2);
        QCOMPARE(plan.level, -1);
        // [350, 405]: the cpu_op ending at 350 and the sync starting at 400 (spans 2 and 3).
        plan = planLanePaint(lane, base + 350, base + 405, 0.1, 2);
        QCOMPARE(plan.level, -1);
        QCOMPARE(plan.firstSpan, size_t(2));
        QCOMPARE(plan.lastSpan, size_t(4));
        // Nothing there: an empty range.
        plan = planLanePaint(lane, base + 500, base + 900, 0.1, 2);
        QCOMPARE(plan.lastSpan - plan.firstSpan, size_t(0));
    }

    void aTraceIsSplitIntoItsLanesWithItsStepsAndExtent()
    {
        KinetoTrace t;
        t.names = { "ProfilerStep#1", "k" };
        t.lanes = { TraceLane { false, 1, 2, "thread 2" }, TraceLane { true, 0, 7, "GPU 0 stream 7" } };
        t.events
            = { { base, 1000, -1, 0, 0, TraceEventKind::Step }, { base + 10, 20, -1, 1, 0, TraceEventKind::Launch },
                  { base + 50, 2000, -1, 1, 1, TraceEventKind::Kernel } };
        const TimelineLanes lanes = buildTimelineLanes(t);
        QCOMPARE(lanes.lanes.size(), size_t(2));
        QCOMPARE(lanes.steps, std::vector<std::int64_t>({ base }));
        QCOMPARE(lanes.first, base);
        QCOMPARE(lanes.last, base + 2050);
        QCOMPARE(lanes.lanes[0].spans.size(), size_t(1)); // the step has no lane of its own
        QVERIFY(lanes.lanes[1].gpu);
        QCOMPARE(lanes.lanes[1].label, std::string("GPU 0 stream 7"));
    }
};

QTEST_MAIN(TestTimelineLanes)
#include "tst_timelinelanes.moc"
