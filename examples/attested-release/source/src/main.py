print('serving')
