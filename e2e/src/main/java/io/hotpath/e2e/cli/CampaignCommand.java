package io.hotpath.e2e.cli;

import io.hotpath.e2e.campaign.Campaign;
import io.hotpath.e2e.campaign.CampaignOptions;

/**
 * {@code bin/hotpath campaign}: parses the options, checks the network namespace and runs {@link Campaign} into
 * {@code campaign-<timestamp>/} under the run root. Runs inside the launcher's private namespace (module cli's ClusterLauncher), like the smoke
 * (same system properties, same exit codes: {@link Controller}).
 */
public final class CampaignCommand {

    private CampaignCommand() {
    }

    public static void main(String[] args) {
        int code = run(args);
        Controller.recordExitCode(code);
        System.exit(code);
    }

    static int run(String... args) {
        return Controller.runController(context -> {
            CampaignOptions options = CampaignOptions.parse(args);
            if (options.help()) {
                System.out.println(CampaignOptions.USAGE);
                return true;
            }
            Controller.checkNetwork(options.privateNetwork());
            return Campaign.run(options, context.projectRoot(), context.runRoot().resolve("campaign-" + context.stamp()));
        });
    }
}
