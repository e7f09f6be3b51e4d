import { newId } from '@svc/kernel';
console.warn(newId('ki_'));
