package dev.mcpx.chaos;

import dev.mcpx.protocol.Json;
import java.util.List;
import java.util.Random;
import tools.jackson.databind.node.ObjectNode;

/**
 * One tool call a soak caller makes: the tool's exposed name and its arguments, which may ask
 * the upstream to misbehave ({@code chaos}: duplicate or stray responses, garbage and
 * oversized lines, never answering, answering slowly).
 */
record SoakCall(String tool, ObjectNode arguments) {

    /** Tools with no read-only or idempotent evidence: each may run at most as often as it was called. */
    static final List<String> UNSAFE = List.of("lh__increment", "mh__destructive_tool", "mh__plain_tool", "st__add");

    private static final List<String> STDIO_CHAOS = List.of("garbage", "oversized", "duplicate", "unknown-id", "slow");
    private static final List<String> MODERN_CHAOS = List.of("duplicate", "unknown-id");

    static SoakCall pick(Random random, String tag) {
        ObjectNode args = Json.object();
        int roll = random.nextInt(100);
        if (roll < 30) {
            return legacy(random, args, tag);
        }
        if (roll < 65) {
            String tool = List.of("mh__read_only_tool", "mh__idempotent_tool", "mh__destructive_tool", "mh__plain_tool")
                    .get(random.nextInt(4));
            args.put("text", tag);
            if (random.nextInt(100) < 15) {
                args.put("chaos", MODERN_CHAOS.get(random.nextInt(MODERN_CHAOS.size())));
            }
            return new SoakCall(tool, args);
        }
        return stdio(random, args, tag);
    }

    private static SoakCall legacy(Random random, ObjectNode args, String tag) {
        return switch (random.nextInt(3)) {
            case 0 -> new SoakCall("lh__echo", args.put("text", tag));
            case 1 -> new SoakCall("lh__increment", args);
            default -> new SoakCall("lh__slow", args.put("ms", 20 + random.nextInt(300)));
        };
    }

    private static SoakCall stdio(Random random, ObjectNode args, String tag) {
        String tool = switch (random.nextInt(3)) {
            case 0 -> {
                args.put("text", tag);
                yield "st__echo";
            }
            case 1 -> {
                args.put("a", random.nextInt(1000)).put("b", random.nextInt(1000));
                yield "st__add";
            }
            default -> {
                args.put("ms", 20 + random.nextInt(400));
                yield "st__sleep";
            }
        };
        int roll = random.nextInt(100);
        if (roll < 2) {
            args.put("chaos", "never");
        } else if (roll < 25) {
            String chaos = STDIO_CHAOS.get(random.nextInt(STDIO_CHAOS.size()));
            args.put("chaos", chaos);
            args.put("size", 300_000).put("delay", 100 + random.nextInt(700));
        }
        return new SoakCall(tool, args);
    }

    /** The fault this call asks its upstream for, or null. */
    String chaos() {
        return arguments.has("chaos") ? arguments.get("chaos").asString() : null;
    }
}
