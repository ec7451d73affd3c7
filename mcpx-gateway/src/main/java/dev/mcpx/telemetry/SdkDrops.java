package dev.mcpx.telemetry;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.CollectionRegistration;
import io.opentelemetry.sdk.metrics.export.MetricReader;
import java.util.Set;

/**
 * Reads the SDK's own counters (its semantic-convention self-telemetry) when scraped, for the
 * spans it lost: those the batch queue had no room for ({@code queue_full}) and those an
 * export failed to deliver. Nothing is collected between scrapes.
 */
final class SdkDrops implements MetricReader {

    private static final Set<String> COUNTED = Set.of("otel.sdk.processor.span.processed", "otel.sdk.exporter.span.exported");
    private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    private volatile CollectionRegistration registration = CollectionRegistration.noop();

    @Override
    public void register(CollectionRegistration collection) {
        registration = collection;
    }

    /** Spans lost so far: each counted once, where it was lost. */
    long dropped() {
        long dropped = 0;
        for (MetricData metric : registration.collectAllMetrics()) {
            if (COUNTED.contains(metric.getName())) {
                for (LongPointData point : metric.getLongSumData().getPoints()) {
                    if (point.getAttributes().get(ERROR_TYPE) != null) {
                        dropped += point.getValue();
                    }
                }
            }
        }
        return dropped;
    }

    @Override
    public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
        return AggregationTemporality.CUMULATIVE;
    }

    @Override
    public CompletableResultCode forceFlush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }
}
