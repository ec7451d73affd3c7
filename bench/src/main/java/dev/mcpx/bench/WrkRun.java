package dev.mcpx.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code wrk} run of {@code tools/call} POSTs (a C driver: a Java one saturates first and
 * flatters the ratio), each request with its own id and each answer checked for a result, with
 * the CPU and context switches the process under test spent meanwhile, from /proc.
 */
final class WrkRun {

    /** A wrk run: calls/s, its p50, the process's CPU and context switches per call, answers that were no result. */
    record Wrk(String setup, double callsPerSecond, double p50Millis, double cpuMicrosPerCall, double switchesPerCall,
               long badAnswers) {
    }

    private static final Pattern RATE = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
    private static final Pattern P50 = Pattern.compile("\\s50%\\s+([0-9.]+)(us|ms|s)");
    private static final Pattern BAD = Pattern.compile("bad answers: (\\d+)");
    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");

    private WrkRun() {
    }

    /**
     * wrk at {@code connections} for {@code seconds} against {@code url} ({@code session}: a legacy
     * session to send, or null); {@code pid}: the process whose CPU counts, or -1 for none.
     */
    static Wrk run(BenchEnv env, String wrk, String setup, URI url, String session, String tool, long pid,
                   int connections, int seconds) throws IOException, InterruptedException {
        String headers = session == null ? "" : "wrk.headers[\"Mcp-Session-Id\"] = \"" + session + "\"\n"
                + "wrk.headers[\"MCP-Protocol-Version\"] = \"2025-11-25\"\n";
        String script = """
                wrk.method = "POST"
                wrk.headers["Content-Type"] = "application/json"
                wrk.headers["Accept"] = "application/json, text/event-stream"
                %s
                local threads = {}
                local count = 0
                function setup(thread)
                  count = count + 1
                  thread:set("base", count * 100000000)
                  table.insert(threads, thread)
                end
                function init(args)
                  n = base
                  bad = 0
                end
                function request()
                  n = n + 1
                  return wrk.format(nil, nil, nil, '{"jsonrpc":"2.0","id":' .. n ..
                    ',"method":"tools/call","params":{"name":"%s","arguments":{"text":"hello"}}}')
                end
                function response(status, headers, body)
                  if not string.find(body, '"result"', 1, true) then bad = bad + 1 end
                end
                function done(summary, latency, requests)
                  local total = 0
                  for _, t in ipairs(threads) do total = total + t:get("bad") end
                  io.write("bad answers: " .. total .. "\\n")
                end
                """.formatted(headers, tool);
        Files.createDirectories(env.logDir());
        String name = "wrk-" + setup.replaceAll("[^a-z0-9]+", "-") + "-c" + connections;
        Path file = env.logDir().resolve(name + ".lua");
        Files.writeString(file, script);
        double cpuStart = pid < 0 ? Double.NaN : ProcStat.cpuMillis(pid);
        double switchesStart = pid < 0 ? Double.NaN : ProcStat.contextSwitches(pid);
        Process process = new ProcessBuilder(wrk, "-t" + Math.min(2, connections), "-c" + connections, "-d" + seconds + "s",
                "--latency", "-s", file.toString(), url.toString()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        double cpuEnd = pid < 0 ? Double.NaN : ProcStat.cpuMillis(pid);
        double switchesEnd = pid < 0 ? Double.NaN : ProcStat.contextSwitches(pid);
        Files.writeString(env.logDir().resolve(name + ".out"), output);
        Matcher rate = RATE.matcher(output);
        Matcher p50 = P50.matcher(output);
        if (!rate.find() || !p50.find()) {
            throw new IllegalStateException("wrk gave no rate for " + setup + ":\n" + output);
        }
        double callsPerSecond = Double.parseDouble(rate.group(1));
        double p50Millis = Double.parseDouble(p50.group(1)) * switch (p50.group(2)) {
            case "us" -> 0.001;
            case "s" -> 1000.0;
            default -> 1.0;
        };
        Matcher bad = BAD.matcher(output);
        Matcher non2xx = NON_2XX.matcher(output);
        long badAnswers = (bad.find() ? Long.parseLong(bad.group(1)) : 0) + (non2xx.find() ? Long.parseLong(non2xx.group(1)) : 0);
        double calls = callsPerSecond * seconds;
        return new Wrk(setup, callsPerSecond, p50Millis, (cpuEnd - cpuStart) * 1000.0 / calls,
                (switchesEnd - switchesStart) / calls, badAnswers);
    }
}
