export interface X { a: 1 }
