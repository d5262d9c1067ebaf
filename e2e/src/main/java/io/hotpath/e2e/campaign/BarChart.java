package io.hotpath.e2e.campaign;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Grouped bar chart as a PNG, drawn with Java2D in headless mode (no plotting tool to install): one group
 * per scenario, one bar per arm (distribution) at its median, a whisker from min to max over the rounds, and
 * every round as a dot so a reader sees how many there were.
 */
public final class BarChart {

    /** One bar: the rounds' values (at least one) of one distribution in one scenario. */
    public record Bar(String series, List<Double> values) {
    }

    /** One scenario's bars, in series order. */
    public record Group(String label, List<Bar> bars) {
    }

    private static final int WIDTH = 900;
    private static final int HEIGHT = 480;
    private static final int LEFT = 90;
    private static final int RIGHT = 30;
    private static final int TOP = 60;
    private static final int BOTTOM = 80;
    /** Enough for a cross-line campaign's arms (two lines x stock, patched) and a few more before colours repeat. */
    private static final Color[] SERIES_COLORS = {new Color(0x4C72B0), new Color(0xDD8452), new Color(0x55A868),
        new Color(0xC44E52), new Color(0x8172B3), new Color(0x937860)};

    private BarChart() {
    }

    public static void write(Path file, String title, String unit, List<String> series, List<Group> groups) throws IOException {
        System.setProperty("java.awt.headless", "true");
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            draw(g, title, unit, series, groups);
        } finally {
            g.dispose();
        }
        ImageIO.write(image, "png", file.toFile());
    }

    private static void draw(Graphics2D g, String title, String unit, List<String> series, List<Group> groups) {
        double max = groups.stream().flatMap(gr -> gr.bars().stream()).flatMap(b -> b.values().stream())
                .mapToDouble(Double::doubleValue).max().orElse(1);
        max = niceCeiling(max <= 0 ? 1 : max * 1.1);
        int plotWidth = WIDTH - LEFT - RIGHT;
        int plotHeight = HEIGHT - TOP - BOTTOM;
        int baseline = TOP + plotHeight;

        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.drawString(title, LEFT, 28);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.drawString(unit + "  (bar: median; whisker: min-max over rounds; dots: rounds)", LEFT, 46);

        // axis and grid
        for (int i = 0; i <= 5; i++) {
            double value = max * i / 5;
            int y = baseline - (int) Math.round(plotHeight * (double) i / 5);
            g.setColor(new Color(0xE0E0E0));
            g.drawLine(LEFT, y, LEFT + plotWidth, y);
            g.setColor(Color.DARK_GRAY);
            String label = format(value);
            g.drawString(label, LEFT - 8 - g.getFontMetrics().stringWidth(label), y + 4);
        }
        g.setColor(Color.BLACK);
        g.drawLine(LEFT, TOP, LEFT, baseline);
        g.drawLine(LEFT, baseline, LEFT + plotWidth, baseline);

        int groupWidth = plotWidth / Math.max(1, groups.size());
        int barWidth = Math.max(8, Math.min(80, (groupWidth - 30) / Math.max(1, series.size())));
        FontMetrics metrics = g.getFontMetrics();
        for (int gi = 0; gi < groups.size(); gi++) {
            Group group = groups.get(gi);
            int groupLeft = LEFT + gi * groupWidth + (groupWidth - barWidth * series.size()) / 2;
            for (Bar bar : group.bars()) {
                int si = Math.max(0, series.indexOf(bar.series()));
                int x = groupLeft + si * barWidth;
                List<Double> sorted = bar.values().stream().sorted().toList();
                if (sorted.isEmpty()) {
                    continue;
                }
                double median = ArmStatistics.median(sorted);
                int top = baseline - (int) Math.round(plotHeight * median / max);
                g.setColor(SERIES_COLORS[si % SERIES_COLORS.length]);
                g.fillRect(x + 2, top, barWidth - 4, baseline - top);
                int center = x + barWidth / 2;
                int yMin = baseline - (int) Math.round(plotHeight * sorted.get(0) / max);
                int yMax = baseline - (int) Math.round(plotHeight * sorted.get(sorted.size() - 1) / max);
                g.setColor(Color.BLACK);
                g.setStroke(new BasicStroke(1.5f));
                g.drawLine(center, yMin, center, yMax);
                g.drawLine(center - 6, yMin, center + 6, yMin);
                g.drawLine(center - 6, yMax, center + 6, yMax);
                for (double value : sorted) {
                    int y = baseline - (int) Math.round(plotHeight * value / max);
                    g.fillOval(center - 3 + 8, y - 3, 6, 6);
                }
                String label = format(median);
                g.drawString(label, center - metrics.stringWidth(label) / 2, Math.min(top, yMax) - 6);
            }
            g.setColor(Color.BLACK);
            int labelX = LEFT + gi * groupWidth + groupWidth / 2 - metrics.stringWidth(group.label()) / 2;
            g.drawString(group.label(), labelX, baseline + 18);
        }
        // legend
        int x = LEFT;
        for (int si = 0; si < series.size(); si++) {
            g.setColor(SERIES_COLORS[si % SERIES_COLORS.length]);
            g.fillRect(x, HEIGHT - 30, 14, 14);
            g.setColor(Color.BLACK);
            g.drawString(series.get(si), x + 20, HEIGHT - 19);
            x += 40 + metrics.stringWidth(series.get(si));
        }
    }

    private static double niceCeiling(double value) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * magnitude >= value) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static String format(double value) {
        return String.format(Locale.ROOT, value >= 100 ? "%.0f" : value >= 10 ? "%.1f" : "%.2f", value);
    }
}
