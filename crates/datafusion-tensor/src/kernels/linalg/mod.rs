//! numpy's linear algebra per row (spec.md §10): products and diagonals as planned contractions
//! ([`contraction`], labelled ([`labelling`]) by [`products`] and [`einsum`], worked per element type as
//! [`element`] says), the vector kernels along an axis ([`similarity`], [`norm`], [`cross`]); the
//! decompositions are [`crate::kernels::decompose`].

pub mod contraction;
pub mod cross;
pub mod einsum;
pub mod element;
pub mod gemm;
pub mod gemm_row;
pub mod labelling;
pub mod norm;
pub mod products;
pub mod similarity;
