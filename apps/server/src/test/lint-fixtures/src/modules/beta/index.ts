export { betaUseCase } from './beta.usecases.js';
