// RUN: python -c "open('%t.text.npy', 'w').write('1 2 3\n'); open('%t.text.npz', 'w').write('not a zip\n'); open('%t.broken.npz', 'wb').write(b'PK\x03\x04' + bytes(40))"
// RUN: python -c "import zipfile; z = zipfile.ZipFile('%t.member.npz', 'w'); z.writestr('x.npy', 'text, not an array'); z.close()"
// RUN: python -c "import numpy as np; np.save('%t.one.npy', np.zeros((4, 8), np.float32)); np.savez('%t.two.npz', x=np.zeros((4, 8), np.float32))"
// RUN: not meshc-run %s --input x=%t.text.npy 2>&1 | filecheck %s --check-prefix=TEXTNPY
// RUN: not meshc-run %s --input %t.text.npz 2>&1 | filecheck %s --check-prefix=TEXTNPZ
// RUN: not meshc-run %s --input x=%t.text.npz 2>&1 | filecheck %s --check-prefix=TEXTNPZ
// RUN: not meshc-run %s --input %t.broken.npz 2>&1 | filecheck %s --check-prefix=BROKEN
// RUN: not meshc-run %s --input %t.member.npz 2>&1 | filecheck %s --check-prefix=MEMBER
// RUN: not meshc-run %s --input x=%t.two.npz.npy 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: cp %t.two.npz %t.zip.npy
// RUN: not meshc-run %s --input x=%t.zip.npy 2>&1 | filecheck %s --check-prefix=ZIPNPY
// RUN: cp %t.one.npy %t.npy.npz
// RUN: not meshc-run %s --input %t.npy.npz 2>&1 | filecheck %s --check-prefix=NPYNPZ

// --input files are checked for what they claim to be before numpy reads them. A text file named
// .npy got numpy's advice to pass allow_pickle (meshc-run has no such option: it never unpickles);
// an .npz that is not a zip got the same advice, and a damaged zip escaped as an internal
// BadZipFile. Each is now an error naming the file and what it is not.
// TEXTNPY: meshc-run: error: cannot load input 'x' from '{{.*}}text.npy': it is not an .npy file (it does not start with numpy's magic string \x93NUMPY); save the array with numpy.save
// TEXTNPY-NOT: pickle
// TEXTNPZ: meshc-run: error: cannot load inputs from '{{.*}}text.npz': it is not an .npz file (a zip archive of .npy files, as numpy.savez writes)
// TEXTNPZ-NOT: pickle
// BROKEN: meshc-run: error: cannot load inputs from '{{.*}}broken.npz': a damaged .npz archive (BadZipFile:
// BROKEN-NOT: internal error
// MEMBER: meshc-run: error: cannot load inputs from '{{.*}}member.npz': its member 'x.npy' is not an .npy array
// MEMBER-NOT: pickle
// MISSING: meshc-run: error: cannot load input 'x' from '{{.*}}two.npz.npy': No such file or directory
// ZIPNPY: meshc-run: error: cannot load input 'x' from '{{.*}}zip.npy': it is an .npz archive (a zip of arrays); give it as x=FILE.npz, or one array an .npy file
// NPYNPZ: meshc-run: error: cannot load inputs from '{{.*}}npy.npz': it is an .npy file (one array); give it as NAME=FILE.npy
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = "ttir.relu"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %r : tensor<4x8xf32>
}
