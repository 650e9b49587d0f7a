import { context, propagation, trace } from '@opentelemetry/api'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { recordSpans } from '@tutoring/adapters'
import { BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node'

export type Tracing = { shutdown(): Promise<void> }

/**
 * Registers OpenTelemetry tracing for the process: spans go to `processor`, the active span
 * follows async work (AsyncLocalStorage), and W3C `traceparent` is read from requests. The
 * spans themselves come from the HTTP middleware (@hono/otel), the database's query log and
 * the Redis client (see the adapters); with nothing registered they cost next to nothing.
 */
export function startTracing(processor: SpanProcessor, serviceName = 'tutoring-marketplace'): Tracing {
  const provider = new NodeTracerProvider({ spanProcessors: [processor], resource: resourceFromAttributes({ 'service.name': serviceName }) })
  provider.register()
  recordSpans(true)
  return {
    async shutdown() {
      recordSpans(false)
      await provider.shutdown()
      trace.disable()
      context.disable()
      propagation.disable()
    },
  }
}

/**
 * With OTEL_EXPORTER_OTLP_ENDPOINT set: traces go out over OTLP/HTTP, in batches. The
 * exporter reads the standard OTEL_EXPORTER_OTLP_* variables itself (endpoint, headers).
 */
export async function startOtlpTracing(serviceName: string): Promise<Tracing> {
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http')
  return startTracing(new BatchSpanProcessor(new OTLPTraceExporter()), serviceName)
}
