// Our own prototypes of the reference LAPACK routines we call (Debian's liblapack-dev ships no
// C header). Fortran calling convention: every argument by pointer, INTEGER is a 32-bit int,
// and each CHARACTER argument adds a hidden trailing length argument of type size_t.
// Linux links the reference liblapack/libblas; Apple platforms link the Accelerate framework
// (Package.swift), whose legacy CLAPACK interface exports the same symbols with 32-bit integers
// on LP64 and no hidden length arguments: the trailing lengths we pass are extra arguments the
// callee never reads, which the C calling convention allows (not verified on Apple hardware here).
#ifndef CLAPACK_H
#define CLAPACK_H

#include <stddef.h>

/// Least squares / minimum norm by QR or LQ: min ‖B − A X‖.
void dgels_(const char *trans, const int *m, const int *n, const int *nrhs,
            double *a, const int *lda, double *b, const int *ldb,
            double *work, const int *lwork, int *info, size_t trans_len);

/// Minimum-norm least squares by divide-and-conquer SVD, with rank tolerance rcond.
void dgelsd_(const int *m, const int *n, const int *nrhs,
             double *a, const int *lda, double *b, const int *ldb,
             double *s, const double *rcond, int *rank,
             double *work, const int *lwork, int *iwork, int *info);

/// Solve A X = B for symmetric positive-definite A (Cholesky).
void dposv_(const char *uplo, const int *n, const int *nrhs,
            double *a, const int *lda, double *b, const int *ldb, int *info, size_t uplo_len);

/// Cholesky factorisation A = L Lᵀ (uplo = "L") or Uᵀ U (uplo = "U").
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info, size_t uplo_len);

/// Inverse of an SPD matrix from its Cholesky factor (dpotrf output).
void dpotri_(const char *uplo, const int *n, double *a, const int *lda, int *info, size_t uplo_len);

/// Eigenvalues (ascending) and optionally eigenvectors of a symmetric matrix.
void dsyev_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda,
            double *w, double *work, const int *lwork, int *info,
            size_t jobz_len, size_t uplo_len);

#endif
