package dev.mcpx.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/** Runs the JMH microbenchmarks in dev.mcpx.bench.jmh with their own (short) settings. */
final class JmhSection {

    /** One benchmark's score with its 99.9% error, in the benchmark's unit. */
    record Score(String benchmark, String params, double score, double error, String unit) {
    }

    private JmhSection() {
    }

    static List<Score> run() throws Exception {
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                .include("dev\\.mcpx\\.bench\\.jmh\\..*")
                .jvmArgsAppend("-Xmx1g")
                .build()).run();
        List<Score> scores = new ArrayList<>();
        for (RunResult r : results) {
            var params = r.getParams();
            List<String> shown = new ArrayList<>();
            for (String key : params.getParamsKeys()) {
                shown.add(key + "=" + params.getParam(key));
            }
            var primary = r.getPrimaryResult();
            String name = params.getBenchmark().replace("dev.mcpx.bench.jmh.", "");
            scores.add(new Score(name, String.join(" ", shown), primary.getScore(), primary.getScoreError(),
                    primary.getScoreUnit()));
        }
        scores.sort(Comparator.comparing(Score::benchmark).thenComparing(Score::params));
        return scores;
    }
}
