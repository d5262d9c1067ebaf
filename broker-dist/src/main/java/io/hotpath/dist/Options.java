package io.hotpath.dist;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code --name value} pairs of the build tools' command lines; every option is required unless defaulted. */
final class Options {

    private Options() {
    }

    static Map<String, String> parse(String[] args, List<String> known, String usage) {
        return parse(args, known, Map.of(), usage);
    }

    static Map<String, String> parse(String[] args, List<String> known, Map<String, String> defaults, String usage) {
        Map<String, String> options = new LinkedHashMap<>(defaults);
        for (int i = 0; i < args.length; i += 2) {
            if (!known.contains(args[i])) {
                throw new DistBuildException("unknown option '" + args[i] + "'; " + usage);
            }
            if (i + 1 >= args.length) {
                throw new DistBuildException("option " + args[i] + " needs a value; " + usage);
            }
            options.put(args[i], args[i + 1]);
        }
        for (String option : known) {
            if (!options.containsKey(option)) {
                throw new DistBuildException("missing option " + option + "; " + usage);
            }
        }
        return options;
    }
}
