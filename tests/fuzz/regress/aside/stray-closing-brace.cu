__global__ void k(float *o) { o[0] = 1; }
}
int main() { return 0; }
