package dev.mcpx.setup;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code setup} will write, computed before anything is written (so {@code --dry-run} shows
 * exactly what a real run does). {@code hostBefore}/{@code mcpxBefore} are null for a missing file.
 */
public record SetupPlan(Host host, Path hostFile, String hostBefore, String hostAfter,
                        Path mcpxConfig, String mcpxBefore, String mcpxAfter,
                        List<Move> moves, List<Left> left) {

    /** One host entry moved into mcpx's config, under {@code mcpxName}. */
    public record Move(String hostName, String mcpxName, boolean alreadyThere) {
    }

    /** One host entry left where it is, and why. */
    public record Left(String name, String reason) {
    }

    public SetupPlan {
        moves = List.copyOf(moves);
        left = List.copyOf(left);
    }

    /** What the user is told, one line each. */
    public List<String> report() {
        List<String> lines = new ArrayList<>();
        for (Move move : moves) {
            if (move.alreadyThere()) {
                lines.add("moved " + move.hostName() + ": " + mcpxConfig + " already has it, unchanged");
            } else if (!move.hostName().equals(move.mcpxName())) {
                lines.add("moved " + move.hostName() + " as " + move.mcpxName() + ": " + mcpxConfig
                        + " already has a different \"" + move.hostName() + "\"");
            } else {
                lines.add("moved " + move.hostName());
            }
        }
        for (Left kept : left) {
            lines.add("left " + kept.name() + " in " + hostFile + ": it " + kept.reason());
        }
        return lines;
    }

    /** The two files' diffs, as {@code --dry-run} prints them. */
    public String diff() {
        return LineDiff.of(hostFile.toString(), hostBefore, hostAfter)
                + LineDiff.of(mcpxConfig.toString(), mcpxBefore, mcpxAfter);
    }
}
