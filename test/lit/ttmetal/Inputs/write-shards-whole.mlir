module attributes {tt.device = #tt.device<workerGrid = #tt.grid<8x8, (d0, d1) -> (0, d0, d1)>, meshShape = 1x2, chipIds = [0, 1]>} {
  func.func @main(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
    %b = "ttmetal.create_buffer"() {memory_config = #ttnn.memory_config<#ttnn.buffer_type<dram>, <interleaved>>, tile = array<i64: 32, 32>} : () -> !ttmetal.buffer<32x32xf32>
    // a whole host tensor: not one a device
    "ttmetal.enqueue_write_shards"(%x, %b) : (tensor<32x32xf32>, !ttmetal.buffer<32x32xf32>) -> ()
    %r = "ttmetal.enqueue_read_shards"(%b) : (!ttmetal.buffer<32x32xf32>) -> tensor<32x32xf32>
    "ttmetal.deallocate_buffer"(%b) : (!ttmetal.buffer<32x32xf32>) -> ()
    "ttmetal.finish"() : () -> ()
    func.return %r : tensor<32x32xf32>
  }
}
