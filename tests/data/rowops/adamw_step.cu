// adamw_step.cu — an AdamW step, one thread per element, updating the
// parameters and both moments in place; the hyperparameters as floats, the
// bias corrections computed by the kernel (tests/rowops.test).
__global__ void adamw_step(float *param, const float *grad, float *exp_avg,
			   float *exp_avg_sq, long n, float lr, float beta1, float beta2,
			   float eps, float weight_decay, float bc1, float bc2)
{
	long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float g = grad[i];
	float m = beta1 * exp_avg[i] + (1.0f - beta1) * g;
	float v = beta2 * exp_avg_sq[i] + (1.0f - beta2) * (g * g);
	float p = param[i] * (1.0f - lr * weight_decay);
	param[i] = p - lr / bc1 * (m / (sqrtf(v) / sqrtf(bc2) + eps));
	exp_avg[i] = m;
	exp_avg_sq[i] = v;
}
