package io.hotpath.e2e.idle;

import io.hotpath.e2e.UsageException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A broker's CPU as a straight line in its message rate: a fixed cost (what it burns with no load, ms of CPU per second)
 * plus a marginal cost per message (us), fitted by least squares through the points an idle report (rate 0) and
 * campaigns at fixed rates (e.g. 250 and 2500 msg/s) measured for one arm. An operator reads the CPU their own rate will
 * cost off it ({@link #msPerSecondAt}); the residual says how far the points are from a line, and with only two points
 * there is none to speak of ({@link #degreesOfFreedom()} 0).
 *
 * <p>Per process of the role (a master): a campaign's "master CPU us/msg" is both masters' CPU per acknowledged message,
 * so at a total rate R each master takes R / 2 msg/s and burns us/msg x R / 2 / 1000 ms/s ({@link Point#ofCampaign}).
 *
 * @param fixedMsPerSecond        the line's value at rate 0
 * @param marginalMicrosPerMessage its slope: CPU per additional message per second
 * @param residualMsPerSecond     root mean square of the points' distances from the line, over n - 2 degrees of freedom
 *                                (0 with two points)
 * @param points                  what was fitted
 */
public record CostModel(double fixedMsPerSecond, double marginalMicrosPerMessage, double residualMsPerSecond, List<Point> points) {

    /** One measured point: a process's message rate (msg/s) and its CPU (ms per second). */
    public record Point(double messagesPerSecond, double cpuMsPerSecond) {

        /**
         * A campaign's figure as a point of one master: {@code masterMicrosPerMessage} is both masters' CPU per acknowledged
         * message at {@code totalRate} msg/s sent to the cluster.
         */
        public static Point ofCampaign(double totalRate, double masterMicrosPerMessage, int masters) {
            double perMaster = totalRate / masters;
            return new Point(perMaster, masterMicrosPerMessage * totalRate / masters / 1000);
        }

        /** An idle report's figure: rate 0. */
        public static Point idle(double cpuMsPerSecond) {
            return new Point(0, cpuMsPerSecond);
        }
    }

    public CostModel {
        points = List.copyOf(points);
    }

    /** The least-squares line through {@code points}; at least two different rates are needed. */
    public static CostModel fit(List<Point> points) {
        if (points.stream().mapToDouble(Point::messagesPerSecond).distinct().count() < 2) {
            throw new UsageException("a cost model needs points at two different rates at least, got " + points);
        }
        int n = points.size();
        double meanX = points.stream().mapToDouble(Point::messagesPerSecond).average().orElseThrow();
        double meanY = points.stream().mapToDouble(Point::cpuMsPerSecond).average().orElseThrow();
        double sxy = 0;
        double sxx = 0;
        for (Point p : points) {
            sxy += (p.messagesPerSecond() - meanX) * (p.cpuMsPerSecond() - meanY);
            sxx += (p.messagesPerSecond() - meanX) * (p.messagesPerSecond() - meanX);
        }
        double slope = sxy / sxx;
        double intercept = meanY - slope * meanX;
        double squares = 0;
        for (Point p : points) {
            double residual = p.cpuMsPerSecond() - (intercept + slope * p.messagesPerSecond());
            squares += residual * residual;
        }
        double residual = n > 2 ? Math.sqrt(squares / (n - 2)) : 0;
        // slope is ms per (msg/s), i.e. ms per message: x 1000 for us
        return new CostModel(intercept, slope * 1000, residual, points);
    }

    /** Two more points than the line's two parameters: what the residual rests on. */
    public int degreesOfFreedom() {
        return points.size() - 2;
    }

    /** The CPU the line predicts at {@code messagesPerSecond} per process, in ms per second. */
    public double msPerSecondAt(double messagesPerSecond) {
        return fixedMsPerSecond + marginalMicrosPerMessage * messagesPerSecond / 1000;
    }

    /** The CPU per message the line predicts at {@code messagesPerSecond}: the fixed cost spread over the messages. */
    public double microsPerMessageAt(double messagesPerSecond) {
        return msPerSecondAt(messagesPerSecond) * 1000 / messagesPerSecond;
    }

    /** "fixed 77.0 ms/s + 240.0 us/msg (residual 3.1 ms/s over 1 degree of freedom)". */
    public String describe() {
        return String.format(Locale.ROOT, "fixed %.1f ms/s + %.1f us/msg (%s)", fixedMsPerSecond, marginalMicrosPerMessage,
                degreesOfFreedom() == 0 ? "two points: no residual" : String.format(Locale.ROOT, "residual %.1f ms/s over %d degree%s"
                        + " of freedom", residualMsPerSecond, degreesOfFreedom(), degreesOfFreedom() == 1 ? "" : "s"));
    }

    /** The points in the order given, for a report's table. */
    public List<String> pointLines() {
        List<String> lines = new ArrayList<>();
        for (Point p : points) {
            lines.add(String.format(Locale.ROOT, "%.0f msg/s: %.1f ms/s measured, %.1f on the line", p.messagesPerSecond(),
                    p.cpuMsPerSecond(), msPerSecondAt(p.messagesPerSecond())));
        }
        return lines;
    }
}
