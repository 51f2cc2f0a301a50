//! Chrome trace events and the CSV row of `fuser-run`.
//!
//! A trace is a list of complete events (`"ph": "X"`), one track per rank (`pid`) and stream
//! (`tid`, 0 = the main stream, i + 1 = worker stream i), with thread-name metadata so that
//! Perfetto and chrome://tracing label the tracks. The CSV row has DDLB's columns.

use std::fmt::Write as _;

/// One timed piece of work.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceEvent {
    pub rank: usize,
    /// 0 for the main stream, i + 1 for worker stream i.
    pub stream: usize,
    pub name: String,
    /// Microseconds since the start of the run.
    pub start_us: f64,
    pub dur_us: f64,
    /// The op's source location, if known.
    pub loc: Option<String>,
}

fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn stream_name(stream: usize) -> String {
    if stream == 0 { "main stream".to_string() } else { format!("stream {}", stream - 1) }
}

/// The Chrome trace JSON of `events`.
pub fn chrome_trace_json(events: &[TraceEvent]) -> String {
    let mut items: Vec<String> = Vec::new();
    let mut tracks: Vec<(usize, usize)> = events.iter().map(|e| (e.rank, e.stream)).collect();
    tracks.sort_unstable();
    tracks.dedup();
    let mut ranks: Vec<usize> = tracks.iter().map(|t| t.0).collect();
    ranks.dedup();
    for r in ranks {
        items.push(format!(
            r#"{{"name":"process_name","ph":"M","pid":{r},"tid":0,"args":{{"name":{}}}}}"#,
            json_string(&format!("rank {r}"))
        ));
    }
    for (r, s) in tracks {
        items.push(format!(
            r#"{{"name":"thread_name","ph":"M","pid":{r},"tid":{s},"args":{{"name":{}}}}}"#,
            json_string(&stream_name(s))
        ));
    }
    for e in events {
        let args = e.loc.as_deref().map(|l| format!(r#","args":{{"loc":{}}}"#, json_string(l))).unwrap_or_default();
        items.push(format!(
            r#"{{"name":{},"ph":"X","pid":{},"tid":{},"ts":{:.3},"dur":{:.3}{args}}}"#,
            json_string(&e.name),
            e.rank,
            e.stream,
            e.start_us,
            e.dur_us
        ));
    }
    format!("{{\"traceEvents\":[\n{}\n],\"displayTimeUnit\":\"ms\"}}\n", items.join(",\n"))
}

/// One CSV row of a benchmark run (DDLB's columns; times in milliseconds, throughput in
/// TFLOP/s of the `2·m·n·k` GEMM work).
#[derive(Clone, Debug, PartialEq)]
pub struct CsvRow {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub dtype: String,
    pub implementation: String,
    pub option: String,
    pub times_ms: Vec<f64>,
    pub world_size: usize,
}

/// The header line of [`CsvRow::to_line`].
pub const CSV_HEADER: &str =
    "m,n,k,dtype,implementation,option,mean_time_ms,std_time_ms,min_time_ms,max_time_ms,throughput_tflops,world_size";

/// Mean, standard deviation, minimum and maximum (zeros for no samples).
pub fn statistics(samples: &[f64]) -> (f64, f64, f64, f64) {
    if samples.is_empty() {
        return (0.0, 0.0, 0.0, 0.0);
    }
    let n = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / n;
    let var = samples.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
    let min = samples.iter().copied().fold(f64::INFINITY, f64::min);
    let max = samples.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (mean, var.sqrt(), min, max)
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

impl CsvRow {
    /// The row, without a newline.
    pub fn to_line(&self) -> String {
        let (mean, std, min, max) = statistics(&self.times_ms);
        let flops = 2.0 * self.m as f64 * self.n as f64 * self.k as f64;
        let tflops = if mean > 0.0 { flops / (mean * 1e-3) / 1e12 } else { 0.0 };
        format!(
            "{},{},{},{},{},{},{mean:.6},{std:.6},{min:.6},{max:.6},{tflops:.6},{}",
            self.m,
            self.n,
            self.k,
            csv_field(&self.dtype),
            csv_field(&self.implementation),
            csv_field(&self.option),
            self.world_size
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trace_has_tracks_and_events() {
        let e = TraceEvent {
            rank: 1,
            stream: 2,
            name: "host.linear".into(),
            start_us: 1.0,
            dur_us: 2.5,
            loc: Some("a\"b".into()),
        };
        let json = chrome_trace_json(&[e]);
        assert!(json.contains(r#""name":"thread_name","ph":"M","pid":1,"tid":2,"args":{"name":"stream 1"}"#));
        assert!(json.contains(r#""ph":"X","pid":1,"tid":2,"ts":1.000,"dur":2.500,"args":{"loc":"a\"b"}"#));
    }

    #[test]
    fn csv_row_statistics() {
        let row = CsvRow {
            m: 2,
            n: 3,
            k: 4,
            dtype: "bf16".into(),
            implementation: "fuser-cpu".into(),
            option: "tp-default".into(),
            times_ms: vec![1.0, 3.0],
            world_size: 4,
        };
        assert_eq!(row.to_line(), "2,3,4,bf16,fuser-cpu,tp-default,2.000000,1.000000,1.000000,3.000000,0.000000,4");
        assert_eq!(CSV_HEADER.split(',').count(), row.to_line().split(',').count());
    }
}
