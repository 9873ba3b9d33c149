-- datafusion-tensor demo: writes a Parquet file of tensors made from generate_series (no
-- downloaded data), reads it back and shows the functions at work.
--
--   cargo run -- -f sql/demo.sql
--
-- The file goes to target/demo/ under the current directory.

-- 1. 100,000 rows: a 2x3 int64 tensor with named dims, a 2x3x4 float32 tensor stored with a
--    permutation (logical shape 4x2x3), and some NULL tensors.
COPY (
  SELECT id,
         tensor(range(id, id + 6), [2, 3], dim_names => ['row', 'col']) AS x,
         tensor(arrow_cast(range(0, 24), 'List(Float32)'), [2, 3, 4], NULL, [2, 0, 1]) AS p,
         CASE WHEN id % 10 = 3 THEN NULL ELSE tensor([id % 2 = 0, id % 3 = 0], [2]) END AS flags
  FROM generate_series(0, 99999) AS g(id)
) TO 'target/demo/tensors.parquet' STORED AS PARQUET;

-- 2. Read it back: the tensor type survives the round trip, columns print nested.
SELECT id, x, tensor_shape(x) AS shape, tensor_ndim(x) AS ndim, tensor_size(x) AS size
FROM 'target/demo/tensors.parquet'
ORDER BY id
LIMIT 3;

-- 3. A permuted tensor is read in logical order (numpy's physical.transpose(2, 0, 1)).
SELECT tensor_shape(p) AS logical_shape, tensor_to_list(p) AS p
FROM 'target/demo/tensors.parquet'
WHERE id = 0;

-- 4. Reshape (numpy reshape, C order; one -1 is inferred) and nested lists.
SELECT id, tensor_reshape(x, [3, -1]) AS x_3x2, tensor_to_list(x)[2] AS second_row
FROM 'target/demo/tensors.parquet'
WHERE id IN (10, 11)
ORDER BY id;

-- 5. NULL tensors propagate; CASE drops the tensor type, so `flags` reads back as a plain
--    FixedSizeList, which every function takes as a 1-d tensor.
SELECT id, flags, tensor_shape(flags) AS shape
FROM 'target/demo/tensors.parquet'
WHERE id BETWEEN 2 AND 4
ORDER BY id;

-- 6. numpy's choose: pick, element by element, from several tensors (or scalars) by an index
--    tensor; out-of-range indices wrap here.
SELECT id,
       tensor_choose(tensor([0, 1, 2, 3, 4, 5], [2, 3]), x, 0, 100, mode => 'wrap') AS chosen,
       tensor_choose(tensor([2, 4, 1, 0], [4]), [0, 10, 20, 30], mode => 'clip') AS clipped
FROM 'target/demo/tensors.parquet'
WHERE id IN (1, 2)
ORDER BY id;

-- 7. numpy indexing and slicing (copies): slices keep axes, integers drop them, lists pick.
SELECT id,
       tensor_get(x, '::-1, 1:') AS reversed_rows_from_col_1,
       tensor_get(x, ':, [2, 0]') AS cols_2_and_0,
       tensor_get(x, '1, -1') AS last_of_row_1,
       tensor_get(p, '0, ..., None') AS p0_with_new_axis
FROM 'target/demo/tensors.parquet'
WHERE id = 5;

-- 8. JAX indexed updates (x.at[idx].op(y)), as copies: duplicate indices accumulate, modes say
--    what an out-of-bounds index does, lambdas transform the elements named.
SELECT id,
       tensor_at_add(x, '[0, 0, 1]', 1) AS row_0_plus_2_row_1_plus_1,
       tensor_at_set(x, ':, [0, 9]', -1, mode => 'drop') AS col_0_set_col_9_dropped,
       tensor_at_get(x, '[1, 5]', mode => 'fill', fill_value => 0) AS rows_1_and_5_filled,
       tensor_at_apply(x, '1, ::2', v -> v * 10) AS row_1_even_cols_times_10
FROM 'target/demo/tensors.parquet'
WHERE id = 5;

-- 9. Over the whole file, in parallel across partitions.
SELECT count(*) AS tensors,
       count(x) AS non_null,
       sum(tensor_size(x)) AS elements,
       sum(tensor_to_list(x)[2][3]) AS sum_of_x_1_2
FROM 'target/demo/tensors.parquet';
