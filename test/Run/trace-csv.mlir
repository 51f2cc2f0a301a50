// --trace writes a Chrome trace with one track per rank and stream; --csv one row with
// DDLB's columns.

// REQUIRES: fuser-run
// RUN: fuser-run %S/../../examples/row_parallel_linear.mlir --ranks 4 --iters 2 --trace %t.json --csv %t.csv
// RUN: FileCheck %s --check-prefix=TRACE < %t.json
// RUN: FileCheck %s --check-prefix=CSV < %t.csv

// TRACE: {"traceEvents":[
// TRACE-DAG: "name":"process_name","ph":"M","pid":3,"tid":0,"args":{"name":"rank 3"}
// TRACE-DAG: "name":"thread_name","ph":"M","pid":0,"tid":3,"args":{"name":"stream 2"}
// TRACE-DAG: {"name":"host.linear","ph":"X","pid":2,"tid":2,
// TRACE-DAG: {"name":"comm.allreduce","ph":"X","pid":1,"tid":1,

// CSV:      m,n,k,dtype,implementation,option,mean_time_ms,std_time_ms,min_time_ms,max_time_ms,throughput_tflops,world_size
// CSV-NEXT: 48,64,256,bf16,fuser-cpu,builtin.module(tp-default),{{.*}},4
