package io.hotpath.e2e.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.hotpath.e2e.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lateness of an arm against its baseline from campaign.json files of the campaign's own round fields: a shift every file
 * shows is found, a difference between files (their rate or day) is not taken for the arm's, and the rounds a comparison
 * must not use (busy, no timed phase) are left out by name while failed ones stay in.
 */
class LatenessComparisonTest {

    /** A round's timed phase: every kind seen, with the given timer p50/p90/max and plain p50 (ms after the earliest). */
    private static JsonObject round(int round, String arm, String machine, String result, long timerP50, long timerMax) {
        JsonObject r = new JsonObject();
        r.addProperty("scenario", "w16 s1024 t8");
        r.addProperty("round", round);
        r.addProperty("arm", arm);
        r.addProperty("result", result);
        r.addProperty("machine", machine);
        JsonObject timed = new JsonObject();
        timed.addProperty("ran", true);
        timed.addProperty("lost", 0);
        timed.addProperty("early", 0);
        timed.addProperty("timerPrecisionMs", 1000);
        JsonArray kinds = new JsonArray();
        kinds.add(kind("probe", 900, 900, 900));
        kinds.add(kind("plain", 10, 20, 30));
        kinds.add(kind("timer", timerP50, timerP50 + 30, timerMax));
        kinds.add(kind("delay level 1", 60, 90, 100));
        kinds.add(kind("delay level 2", 50, 80, 90));
        timed.add("kinds", kinds);
        r.add("timed", timed);
        return r;
    }

    private static JsonObject kind(String name, long p50, long p90, long max) {
        JsonObject k = new JsonObject();
        k.addProperty("kind", name);
        k.addProperty("seen", 4);
        k.addProperty("sinceEarliestMedianMs", p50);
        k.addProperty("sinceEarliestP90Ms", p90);
        k.addProperty("sinceEarliestMaxMs", max);
        return k;
    }

    private static Path file(Path dir, String name, int rate, List<JsonObject> rounds) throws IOException {
        JsonObject json = new JsonObject();
        JsonArray arms = new JsonArray();
        arms.add("stock");
        arms.add("patched+tuned");
        json.add("arms", arms);
        json.addProperty("rate", rate);
        JsonArray all = new JsonArray();
        rounds.forEach(all::add);
        json.add("rounds", all);
        Path file = dir.resolve(name);
        Files.writeString(file, json.toString());
        return file;
    }

    /**
     * n rounds per arm, alternating, timer p50 = base (+ shift for the arm) + a round-to-round spread of 0..40 ms: the same
     * spreads in both arms in another order, so the arms' means differ by the shift exactly.
     */
    private static List<JsonObject> alternating(int n, long base, long shift) {
        List<JsonObject> rounds = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            rounds.add(round(i, "stock", "quiet", "PASS", base + spread(i), base + 100));
            rounds.add(round(i, "patched+tuned", "quiet", "PASS", base + shift + spread(n + 1 - i), base + 100));
        }
        return rounds;
    }

    private static long spread(int i) {
        return (i * 17L) % 41;
    }

    private static LatenessComparison.Row row(LatenessComparison.Json report, String kind, String figure) {
        return report.rows().stream().filter(r -> r.kind().equals(kind) && r.figure().equals(figure)).findFirst().orElseThrow();
    }

    @Test
    void aShiftEveryFileShowsIsLater(@TempDir Path dir) throws IOException {
        Path a = file(dir, "a.json", 250, alternating(5, 1050, 150));
        Path b = file(dir, "b.json", 2500, alternating(5, 1100, 150));

        LatenessComparison.Json report = LatenessComparison.compare(dir, List.of(a, b), "test", "2026-11-30");

        LatenessComparison.Row timer = row(report, "timer", "p50");
        assertThat(timer.files()).isEqualTo(2);
        assertThat(timer.armRounds()).isEqualTo(10);
        assertThat(timer.differenceMs()).isCloseTo(150, offset(1e-9));
        assertThat(timer.pHolm()).isLessThanOrEqualTo(0.05);
        assertThat(timer.verdict()).startsWith("later: +150 ms");
        // the kinds that did not move: nothing shown
        assertThat(row(report, "plain", "p50").verdict()).startsWith("no difference shown: +0 ms");
        assertThat(report.rows()).hasSize(8);
    }

    @Test
    void equalArmsShowNoDifference(@TempDir Path dir) throws IOException {
        Path a = file(dir, "a.json", 250, alternating(5, 1050, 0));

        LatenessComparison.Json report = LatenessComparison.compare(dir, List.of(a), "test", "2026-11-30");

        assertThat(row(report, "timer", "p50").verdict()).startsWith("no difference shown");
        assertThat(row(report, "timer", "p50").p()).isGreaterThan(0.5);
    }

    @Test
    void aDifferenceBetweenFilesIsNotTheArms(@TempDir Path dir) throws IOException {
        // file a: 5 stock rounds, 1 arm round, all at 1000 ms; file b: 1 stock round, 5 arm rounds, all at 1500 ms. Pooled
        // without regard to the file, the arm looks ~330 ms later; within each file the arms are equal
        List<JsonObject> first = new ArrayList<>();
        List<JsonObject> second = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            first.add(round(i, "stock", "quiet", "PASS", 1000, 1100));
            second.add(round(i, "patched+tuned", "quiet", "PASS", 1500, 1600));
        }
        first.add(round(6, "patched+tuned", "quiet", "PASS", 1000, 1100));
        second.add(round(6, "stock", "quiet", "PASS", 1500, 1600));

        LatenessComparison.Json report = LatenessComparison.compare(dir, List.of(file(dir, "a.json", 250, first),
                file(dir, "b.json", 2500, second)), "test", "2026-11-30");

        LatenessComparison.Row timer = row(report, "timer", "p50");
        assertThat(timer.armMedianMs() - timer.baselineMedianMs()).isEqualTo(500);
        assertThat(timer.differenceMs()).isZero();
        assertThat(timer.verdict()).startsWith("no difference shown: +0 ms");
    }

    @Test
    void slotLateRoundsAreCountedPerArmWithFishersP(@TempDir Path dir) throws IOException {
        List<JsonObject> rounds = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            rounds.add(round(i, "stock", "quiet", "PASS", 1070, 1999));
            rounds.add(round(i, "patched+tuned", "quiet", "PASS", 1070, i <= 3 ? 2000 + i : 1150));
        }

        LatenessComparison.Json report = LatenessComparison.compare(dir, List.of(file(dir, "a.json", 250, rounds)), "test", "2026-11-30");

        assertThat(report.slotLate()).singleElement().satisfies(s -> {
            assertThat(s.armSlotLate()).isEqualTo(3);
            assertThat(s.armRounds()).isEqualTo(10);
            assertThat(s.baselineSlotLate()).isZero();
            assertThat(s.armWorstMs()).isEqualTo(2003);
            assertThat(s.baselineWorstMs()).isEqualTo(1999);
            // 3 of 10 against 0 of 10: 2 x C(10,3) / C(20,3)
            assertThat(s.p()).isCloseTo(240.0 / 1140, offset(1e-12));
        });
    }

    @Test
    void busyRoundsAndRoundsWithoutATimedPhaseAreLeftOutByNameFailedOnesStay(@TempDir Path dir) throws IOException {
        List<JsonObject> rounds = new ArrayList<>(alternating(2, 1050, 0));
        rounds.add(round(3, "stock", "busy", "PASS", 5000, 5100));
        JsonObject untimed = round(3, "patched+tuned", "quiet", "PASS", 1050, 1100);
        untimed.remove("timed");
        rounds.add(untimed);
        rounds.add(round(4, "patched+tuned", "quiet", "FAIL", 1600, 1700));

        LatenessComparison.Json report = LatenessComparison.compare(dir, List.of(file(dir, "a.json", 250, rounds)), "test", "2026-11-30");

        assertThat(report.sources()).singleElement().satisfies(s -> {
            assertThat(s.leftOut()).containsExactly("round 3 stock: machine busy", "round 3 patched+tuned: no timed phase");
            assertThat(s.roundsUsed()).containsEntry("stock", 2).containsEntry("patched+tuned", 3);
        });
        assertThat(LatenessComparison.markdown(report)).contains("| timer | p50 | patched+tuned vs stock | 1 | 3 / 2 |");
    }

    @Test
    void aFileThatIsNoCampaignIsOneLine(@TempDir Path dir) throws IOException {
        Path notCampaign = dir.resolve("x.json");
        Files.writeString(notCampaign, "{\"kind\": \"idle\"}");
        assertThatThrownBy(() -> LatenessComparison.compare(dir, List.of(notCampaign), "test", "2026-11-30"))
                .isInstanceOf(UsageException.class).hasMessageEndingWith("x.json is not a campaign.json (no rounds or arms)");
    }
}
